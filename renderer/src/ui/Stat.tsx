import type { ReactNode } from 'react';

/** One figure of a `.stats` strip: the words for it, then the figure, which `testId` marks for the tests. */
export function Stat({ label, value, testId }: { label: ReactNode; value: ReactNode; testId?: string }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}
