import type { InterfaceRow } from '../model/agent-view.js';

/** Props of {@link InterfacesTable}. */
export type InterfacesTableProps = { readonly rows: readonly InterfaceRow[] };

/**
The card's interfaces, one row each, the pinned one marked.

@example
```tsx
<InterfacesTable rows={view.interfaces} />
```
*/
export function InterfacesTable({ rows }: InterfacesTableProps) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Binding</th>
          <th scope="col">Version</th>
          <th scope="col">URL</th>
          <th scope="col">Tenant</th>
          <th scope="col">Pinned</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={`${row.binding} ${row.version} ${row.url} ${row.tenant ?? ''}`}
            className={row.pinned ? 'pinned' : undefined}
          >
            <td>{row.binding}</td>
            <td>{row.version}</td>
            <td className="mono">{row.url}</td>
            <td>{row.tenant ?? '—'}</td>
            <td>{row.pinned ? 'pinned' : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
