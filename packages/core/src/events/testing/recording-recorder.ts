/** A recording EventRecorder for tests of other managers. */
import type { K8sBusEvent } from '../types.ts';
import type { EventType } from '../recorder.ts';
import type { EventRecorder, ObjectRef } from '../recorder.ts';

export interface RecordedEvent {
  ref: ObjectRef;
  type: EventType;
  reason: string;
  message: string;
}

export class RecordingEventRecorder implements EventRecorder {
  readonly events: RecordedEvent[] = [];

  event(ref: ObjectRef, type: EventType, reason: string, message: string): K8sBusEvent | undefined {
    this.events.push({ ref, type, reason, message });
    return undefined;
  }

  eventsFor(): K8sBusEvent[] {
    return [];
  }

  reasons(): string[] {
    return this.events.map((e) => e.reason);
  }
}
