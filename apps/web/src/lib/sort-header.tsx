/** A sortable table column header: a button naming the column, aria-sort and ▲/▼ on the active column. */
export function SortHeader({ label, active, desc, onSort, testId, num, title }: {
  label: string;
  active: boolean;
  desc: boolean;
  onSort: () => void;
  testId: string;
  num?: boolean;
  title?: string;
}) {
  return (
    <th className={num ? 'num' : undefined} title={title} aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="sort" onClick={onSort} data-testid={testId}>
        {label}
        <span aria-hidden className="sort-mark">{active ? (desc ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>
  );
}
