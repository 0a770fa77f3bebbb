/**
 * The runtime's sandbox (pause) image, which image GC must never remove. The kubelet took it from
 * --pod-infra-container-image and now from the runtime: a runtime sets `pinned` on it (containerd ≥ 1.7), or
 * names it in CRI Status verbose info (containerd 1.6: info.config is its CRI config JSON with "sandboxImage").
 */
import { applyDefaultImageTag, parseImageRef } from './image-ref.ts';

/** The sandbox image named in CRI Status verbose info, if any. */
export function sandboxImageOf(info: Record<string, string> | undefined): string | undefined {
  const raw = info?.config;
  if (!raw) return undefined;
  try {
    const v = (JSON.parse(raw) as { sandboxImage?: unknown }).sandboxImage;
    return typeof v === 'string' && v !== '' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The spellings under which a runtime may list `ref`: as given, with `:latest`, and docker.io-normalized. */
export function refSpellings(ref: string): string[] {
  const out = new Set([ref]);
  const tagged = applyDefaultImageTag(ref);
  if (!tagged.ok) return [...out];
  out.add(tagged.image);
  const p = parseImageRef(tagged.image);
  if (p.ok && p.ref.digest === undefined) {
    const parts = p.ref.name.split('/');
    const first = parts[0] ?? '';
    const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
    if (!hasDomain) out.add(`docker.io/${parts.length === 1 ? 'library/' : ''}${tagged.image}`);
  }
  return [...out];
}
