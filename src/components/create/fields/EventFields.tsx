/**
 * An event's own fields in the create form: when (local time in an IANA zone, the editor's own by
 * default), how long, who hosts it, online (join URL) or in person (address), seats, the recording
 * once there is one, whether it is cancelled, and the public description (Markdown). The join URL
 * and the recording are gated: only registered members entitled to the event get them.
 */
import { BodyField } from './BodyField.tsx';
import { errorFor, Field, textInput, type TypeFieldsProps } from './form-parts.tsx';
import { INPUT_CLASS } from '../../forms/TextField.tsx';

/** The zones the browser knows, offered as suggestions (any IANA name is accepted). */
const ZONES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

export function EventFields(props: TypeFieldsProps) {
  const { draft, set, errors } = props;
  return (
    <>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Starts at" error={errorFor(errors, 'startsAt')} hint="Local time in the event’s time zone.">
          {textInput(props, 'startsAt', { type: 'datetime-local' })}
        </Field>
        <Field label="Time zone" error={errorFor(errors, 'timeZone')} hint="For example Europe/London.">
          {textInput(props, 'timeZone', { list: 'event-time-zones', autoComplete: 'off', spellCheck: false })}
        </Field>
      </div>
      <datalist id="event-time-zones">
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Duration (minutes)" error={errorFor(errors, 'durationMinutes')}>
          {textInput(props, 'durationMinutes', { inputMode: 'numeric' })}
        </Field>
        <Field label="Capacity" error={errorFor(errors, 'capacity')} hint="Seats; empty: no limit.">
          {textInput(props, 'capacity', { inputMode: 'numeric' })}
        </Field>
      </div>
      <Field label="Host" error={errorFor(errors, 'host')} hint="Empty: the team.">
        {textInput(props, 'host')}
      </Field>
      <Field label="Format" error={errorFor(errors, 'format')}>
        {(id) => (
          <select
            id={id}
            className={INPUT_CLASS}
            value={draft.format}
            onChange={(e) => set('format', e.target.value as typeof draft.format)}
          >
            <option value="online">Online</option>
            <option value="in-person">In person</option>
          </select>
        )}
      </Field>
      {draft.format === 'online' ? (
        <Field label="Join URL" error={errorFor(errors, 'joinUrl')} hint="https:// link to the meeting. Only registered members get it.">
          {textInput(props, 'joinUrl', { type: 'url' })}
        </Field>
      ) : (
        <Field label="Address" error={errorFor(errors, 'address')}>
          {textInput(props, 'address')}
        </Field>
      )}
      <Field label="Recording URL" error={errorFor(errors, 'recordingUrl')} hint="Once there is one. Only entitled members get it.">
        {textInput(props, 'recordingUrl', { type: 'url' })}
      </Field>
      <div>
        <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-700">
          <input type="checkbox" checked={draft.cancelled} onChange={(e) => set('cancelled', e.target.checked)} />
          Cancelled
        </label>
        <p className="mt-1 text-sm text-slate-500">A cancelled event stays listed, marked Cancelled; registration closes.</p>
      </div>
      <BodyField
        label="About the event"
        hint="Markdown. Public: shown on the event page."
        value={draft.content}
        onChange={(value) => set('content', value)}
        error={errorFor(errors, 'content')}
      />
    </>
  );
}
