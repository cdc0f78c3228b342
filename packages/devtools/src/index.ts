/**
@module
`@surecall/devtools`: see what a surecall client, its ledger and an A2A agent are doing. The standalone app
(`npm start`) and this embeddable panel are built from the same components; the panel reads the client only
through its public fields and `client.events`.

@example
```tsx
import { SurecallDevtools } from '@surecall/devtools';
import '@surecall/devtools/styles.css';

<SurecallDevtools client={client} />
```
*/
/* The panel, and the types its props use */
export type { SurecallDevtoolsProps } from './components/devtools.js';
export { SurecallDevtools } from './components/devtools.js';
export type { Feed } from './hooks/use-event-count.js';
export type { CardRequest, ConnectionFacts, SecurityChoice, TrustChoice } from './model/agent-view.js';
export type { MeterLimits } from './model/meters.js';
