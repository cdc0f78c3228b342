import { type SendPreset, sendPresets } from '../model/send.js';

/** Props of {@link SendPresets}. */
export type SendPresetsProps = {
  /** Whether the card allows SendStreamingMessage: the streamed presets wait for it. */
  readonly streaming: boolean;
  onPreset(preset: SendPreset): void;
};

/**
One button per preset of the mock agent's behaviours, each sending its line as it shows it.

@example
```tsx
<SendPresets streaming onPreset={(preset) => send(preset.mode, preset.text)} />
```
*/
export function SendPresets({ streaming, onPreset }: SendPresetsProps) {
  return (
    <fieldset className="presets">
      <legend>Presets</legend>
      {sendPresets.map((preset) => (
        <button
          key={preset.label}
          type="button"
          className="preset"
          disabled={preset.mode === 'stream' && !streaming}
          onClick={() => onPreset(preset)}
        >
          {preset.label}: <span className="mono">{preset.text}</span>
          {preset.mode === 'stream' ? ' (streamed)' : ''}
        </button>
      ))}
    </fieldset>
  );
}
