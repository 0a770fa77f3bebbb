/** Call recording and error injection shared by the fake runtime's methods. */
import { CriError, type CriCallOptions, type CriMethodName } from '../types.ts';

export interface FakeCall {
  method: CriMethodName;
  request: unknown;
}

export class FakeRecorder {
  /** Every call made, in order, with the request as passed. */
  readonly calls: FakeCall[] = [];
  private next = new Map<CriMethodName, Error[]>();
  private always = new Map<CriMethodName, Error>();
  private holds = new Map<CriMethodName, Promise<void>[]>();

  /** The next call of `method` fails with `err` (queued: call several times for several failures). */
  failNext(method: CriMethodName, err: Error = new CriError('UNKNOWN', `injected ${method} failure`)): void {
    const q = this.next.get(method) ?? [];
    q.push(err);
    this.next.set(method, q);
  }

  /** Every call of `method` fails with `err` until cleared (`null` clears). */
  failAlways(method: CriMethodName, err: Error | null): void {
    if (err) this.always.set(method, err);
    else this.always.delete(method);
  }

  clearFailures(): void {
    this.next.clear();
    this.always.clear();
  }

  /** The next call of `method` waits until the returned release function is called. */
  holdNext(method: CriMethodName): () => void {
    let release!: () => void;
    const p = new Promise<void>((r) => (release = r));
    const q = this.holds.get(method) ?? [];
    q.push(p);
    this.holds.set(method, q);
    return release;
  }

  /** Requests of every call of `method`, in order. */
  callsOf<T = unknown>(method: CriMethodName): T[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.request as T);
  }

  /** Method names in call order (handy for asserting sequences). */
  methods(): CriMethodName[] {
    return this.calls.map((c) => c.method);
  }

  resetCalls(): void {
    this.calls.length = 0;
  }

  /** Records the call, then applies hold, abort and injected failures (throws the injected error). */
  async begin(method: CriMethodName, request: unknown, o: CriCallOptions | undefined, closed: boolean): Promise<void> {
    this.calls.push({ method, request });
    const hold = this.holds.get(method)?.shift();
    if (hold) await hold;
    if (closed) throw new CriError('CANCELLED', `CRI ${method}: fake runtime client is closed`, { op: method });
    if (o?.signal?.aborted) throw new CriError('CANCELLED', `CRI ${method} was cancelled by the caller`, { op: method });
    const injected = this.next.get(method)?.shift() ?? this.always.get(method);
    if (injected) throw injected;
  }
}

export const notFound = (op: string, what: string): CriError =>
  new CriError('NOT_FOUND', `CRI ${op}: ${what} not found`, { op, endpoint: 'fake', details: `${what} not found` });

export const unknownErr = (op: string, details: string): CriError =>
  new CriError('UNKNOWN', `CRI ${op} failed (UNKNOWN): ${details}`, { op, endpoint: 'fake', details });
