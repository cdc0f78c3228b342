import type { OperationName } from '@surecall/client/protocol';
import type { ActiveFault, FaultKind } from '@surecall/mocks';
import { useState } from 'react';
import { type FaultSwitch, faultSpec, initialValues } from '../model/faults.js';
import type { FaultLab } from './use-fault-lab.js';

/** What the Faults panel's switches are set to, and how a switch arms or disarms its fault. */
export type SwitchSettings = {
  /** The operation the switches aim at; `*` is any operation. */
  readonly operation: OperationName | '*';
  setOperation(operation: OperationName | '*'): void;
  /** How many matching requests a fault armed now applies to, as typed. */
  readonly count: string;
  setCount(count: string): void;
  /** A switch's parameters as typed, its initial ones until a person types. */
  valuesOf(entry: FaultSwitch): Readonly<Record<string, string>>;
  setValues(kind: FaultKind, values: Record<string, string>): void;
  /** Why a switch's last arming was refused (a parameter or the count out of range), if it was. */
  problemOf(kind: FaultKind): string | undefined;
  /** Disarms `armed` when it holds any fault, else arms the switch's fault for the operation. */
  toggle(entry: FaultSwitch, armed: readonly ActiveFault[]): Promise<void>;
};

/**
The switches' settings and their toggle over `lab`. The settings live as long as the panel, so a lab that was
unreachable for a while finds them as they were.

@example
```ts
const switches = useSwitchSettings(lab);
await switches.toggle(entry, armedFor(faults, entry.kind, switches.operation));
```
*/
export function useSwitchSettings(lab: Pick<FaultLab, 'arm' | 'disarm'>): SwitchSettings {
  const [operation, setOperation] = useState<OperationName | '*'>('SendMessage');
  const [count, setCount] = useState('1');
  const [values, setAllValues] = useState<Partial<Record<FaultKind, Record<string, string>>>>({});
  const [problems, setProblems] = useState<Partial<Record<FaultKind, string>>>({});
  const valuesOf = (entry: FaultSwitch) => values[entry.kind] ?? initialValues(entry);
  return {
    operation,
    setOperation,
    count,
    setCount,
    valuesOf,
    setValues: (kind, next) => setAllValues({ ...values, [kind]: next }),
    problemOf: (kind) => problems[kind],
    toggle: async (entry, armed) => {
      if (armed.length > 0) {
        await lab.disarm(armed.map((fault) => fault.id));
        return;
      }
      const result = faultSpec(entry.kind, operation, valuesOf(entry), Number(count));
      setProblems({ ...problems, [entry.kind]: result.problem?.message });
      if (result.ok) {
        await lab.arm(result.spec);
      }
    },
  };
}
