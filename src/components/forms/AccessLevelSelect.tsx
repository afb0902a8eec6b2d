/** A select of the three access levels, labelled as members see them (Free, Subscriber, Premium). */
import { ACCESS_LEVELS, accessLabel, type AccessLevel } from '#shared/access.ts';
import { INPUT_CLASS } from './TextField.tsx';

export function AccessLevelSelect({ id, value, onChange }: { id: string; value: AccessLevel; onChange: (level: AccessLevel) => void }) {
  return (
    <select id={id} className={INPUT_CLASS} value={value} onChange={(e) => onChange(e.target.value as AccessLevel)}>
      {ACCESS_LEVELS.map((level) => (
        <option key={level} value={level}>
          {accessLabel(level)}
        </option>
      ))}
    </select>
  );
}
