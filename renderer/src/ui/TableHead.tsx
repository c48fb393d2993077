/**
 * The heading row of a data table: every heading scoped to its column, so a screen reader names the column
 * at each cell; the headings listed in `numeric` align right, over their figures.
 */
export function TableHead({
  columns,
  numeric = [],
}: {
  columns: readonly string[];
  numeric?: readonly string[];
}) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col" className={numeric.includes(c) ? 'num' : undefined}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
