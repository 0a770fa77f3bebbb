import Link from 'next/link';

/** Any path the console has no page for (Next's not-found): a styled page with the way back. */
export default function NotFound() {
  return (
    <section className="panel not-found" data-testid="not-found">
      <div className="panel-body">
        <p className="not-found-code" aria-hidden>404</p>
        <h2>This page does not exist</h2>
        <p className="muted">The console has no page at this address. The pod or container may also have been deleted.</p>
        <p>
          <Link href="/">Node &amp; pods</Link> · <Link href="/containers">Containers</Link> · <Link href="/images">Images</Link> · <Link href="/events">Lifecycle tail</Link>
        </p>
      </div>
    </section>
  );
}
