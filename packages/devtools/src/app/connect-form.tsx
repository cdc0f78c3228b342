import { useId, useState } from 'react';
import { type ConnectRequest, type ConnectForm as Form, parseConnectForm } from './connection.js';

/** Props of {@link ConnectForm}. */
export type ConnectFormProps = {
  readonly initial: Form;
  readonly busy: boolean;
  onConnect(request: ConnectRequest, form: Form): void;
};

/**
The real-agent form of the standalone app: card URL, optional pin (binding, interface URL, tenant), expected
digest and bearer token.

@example
```tsx
<ConnectForm initial={emptyConnectForm} busy={false} onConnect={(request) => void open(request)} />
```
*/
export function ConnectForm({ initial, busy, onConnect }: ConnectFormProps) {
  const [form, setForm] = useState<Form>(initial);
  const [problem, setProblem] = useState<{ field: keyof Form; message: string } | undefined>(undefined);
  const id = useId();
  const field = (name: keyof Form) => ({
    id: `${id}-${name}`,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
    ...(problem?.field === name ? { 'aria-invalid': true, 'aria-describedby': `${id}-problem` } : {}),
  });
  return (
    <form
      className="connect-form"
      aria-label="Connect to an agent"
      onSubmit={(event) => {
        event.preventDefault();
        const result = parseConnectForm(form);
        setProblem(result.ok ? undefined : result.problem);
        if (result.ok) {
          onConnect(result.request, form);
        }
      }}
    >
      <label htmlFor={`${id}-cardUrl`}>Card URL</label>
      <input
        {...field('cardUrl')}
        type="url"
        required
        placeholder="http://127.0.0.1:4100/.well-known/agent-card.json"
      />
      <label htmlFor={`${id}-binding`}>Binding</label>
      <select {...field('binding')}>
        <option value="auto">the card’s first</option>
        <option value="JSONRPC">JSONRPC</option>
        <option value="HTTP+JSON">HTTP+JSON</option>
      </select>
      <label htmlFor={`${id}-pinUrl`}>Interface URL (pin)</label>
      <input {...field('pinUrl')} type="url" placeholder="the binding’s first" />
      <label htmlFor={`${id}-tenant`}>Tenant</label>
      <input {...field('tenant')} />
      <label htmlFor={`${id}-digest`}>Expected card digest</label>
      <input {...field('digest')} placeholder="sha256:…" className="mono" />
      <label htmlFor={`${id}-token`}>Bearer token</label>
      <input {...field('token')} type="password" autoComplete="off" placeholder="anonymous" />
      <label htmlFor={`${id}-scheme`}>Security scheme</label>
      <input {...field('scheme')} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect'}
        </button>
      </div>
      {problem === undefined ? null : (
        <p className="error" id={`${id}-problem`} role="alert">
          {problem.message}
        </p>
      )}
    </form>
  );
}
