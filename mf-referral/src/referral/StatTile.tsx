import type { ReactNode } from 'react';

/**
 * One figure of the referral page as a tile: its name, the figure, and a line saying what it counts, so a
 * bare "Bonuses" or "Earned" is never left to guess. The hint is a second <dd>, so it stays with its term.
 */
export function StatTile({ testId, label, value, hint }: { testId: string; label: string; value: ReactNode; hint: string }) {
  return (
    <div className="card stat" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
      <dd className="stat__hint" data-testid={`${testId}-hint`}>
        {hint}
      </dd>
    </div>
  );
}
