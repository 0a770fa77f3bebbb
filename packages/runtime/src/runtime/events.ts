export type ContainerEventType =
  | 'CONTAINER_CREATED_EVENT'
  | 'CONTAINER_STARTED_EVENT'
  | 'CONTAINER_STOPPED_EVENT'
  | 'CONTAINER_DELETED_EVENT';

export interface RuntimeEvent {
  type: ContainerEventType;
  containerId: string;
  sandboxId: string;
  createdAt: number;
}

/** Fan-out of container lifecycle events to live GetContainerEvents streams. */
export class EventHub {
  private readonly subs = new Set<(e: RuntimeEvent) => void>();

  subscribe(fn: (e: RuntimeEvent) => void): () => void {
    this.subs.add(fn);
    return () => this.subs.delete(fn);
  }

  emit(e: RuntimeEvent): void {
    for (const fn of this.subs) {
      try {
        fn(e);
      } catch {
        /* a broken subscriber must not break the runtime */
      }
    }
  }

  get size(): number {
    return this.subs.size;
  }
}
