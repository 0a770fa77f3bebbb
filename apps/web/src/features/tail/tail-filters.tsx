import { EVENT_TYPES, type NodeletEventType } from '../../lib/api-types.ts';
import type { TailFilter } from './tail-model.ts';

interface Props {
  filter: TailFilter;
  namespaces: string[];
  onChange(f: TailFilter): void;
}

export function TailFilters({ filter, namespaces, onChange }: Props) {
  return (
    <div className="filters">
      <label>
        Namespace
        <input
          data-testid="tail-filter-namespace"
          list="tail-namespaces"
          placeholder="any"
          value={filter.namespace}
          onChange={(e) => onChange({ ...filter, namespace: e.target.value })}
        />
        <datalist id="tail-namespaces">
          {namespaces.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </label>
      <label>
        Pod
        <input data-testid="tail-filter-pod" placeholder="name contains" value={filter.pod} onChange={(e) => onChange({ ...filter, pod: e.target.value })} />
      </label>
      <label>
        Type
        <select data-testid="tail-filter-type" value={filter.type} onChange={(e) => onChange({ ...filter, type: e.target.value as NodeletEventType | '' })}>
          <option value="">all</option>
          {EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
