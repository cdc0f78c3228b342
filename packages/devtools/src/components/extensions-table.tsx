import { yesNo } from '../model/agent-labels.js';
import type { ExtensionRow } from '../model/agent-view.js';

/** Props of {@link ExtensionsTable}. */
export type ExtensionsTableProps = { readonly rows: readonly ExtensionRow[] };

/**
The card's extensions: whether each is required and whether the client requests it; a line saying so when
there are none.

@example
```tsx
<ExtensionsTable rows={view.extensions} />
```
*/
export function ExtensionsTable({ rows }: ExtensionsTableProps) {
  if (rows.length === 0) {
    return <p className="muted">The card declares no extensions.</p>;
  }
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">URI</th>
          <th scope="col">Required</th>
          <th scope="col">Requested</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.uri}>
            <td className="mono" title={row.description}>
              {row.uri}
            </td>
            <td>{yesNo(row.required)}</td>
            <td>{row.requested === undefined ? 'not reported' : yesNo(row.requested)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
