import { EventTail } from '../../features/tail/event-tail.tsx';

export const metadata = { title: 'Lifecycle tail · nodelet console' };

export default function EventsPage() {
  return <EventTail />;
}
