/** The element of a PodList body's "items" whose metadata.name is `name`, parsed (pod-item.mjs). */
export function podItem(body: Buffer, name: string): { metadata?: { name?: string }; status?: { containerStatuses?: Array<{ containerID?: string; state?: { terminated?: unknown } }> } } | undefined;
