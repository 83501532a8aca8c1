import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';

export type PoolTab = 'deposit' | 'withdraw';
const TABS: readonly PoolTab[] = ['deposit', 'withdraw'];

/**
 * Deposit and Withdraw as an ARIA tablist: arrow keys, Home and End move between tabs, Tab goes into
 * the panel. Both panels stay mounted so a deposit in progress keeps its state across tabs.
 */
export function PoolTabs({ panels }: { panels: Record<PoolTab, ReactNode> }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<PoolTab>('deposit');
  const refs = useRef<Partial<Record<PoolTab, HTMLButtonElement | null>>>({});

  const select = (tab: PoolTab) => {
    setSelected(tab);
    refs.current[tab]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.indexOf(selected);
    const next =
      event.key === 'ArrowRight' ? TABS[(index + 1) % TABS.length]
      : event.key === 'ArrowLeft' ? TABS[(index + TABS.length - 1) % TABS.length]
      : event.key === 'Home' ? TABS[0]
      : event.key === 'End' ? TABS[TABS.length - 1]
      : undefined;
    if (!next) return;
    event.preventDefault();
    select(next);
  };

  return (
    <div className="card pool-tabs">
      <div role="tablist" aria-label={t('tabs.label')} className="pool-tabs__list">
        {TABS.map((tab) => (
          <button
            key={tab}
            ref={(el) => {
              refs.current[tab] = el;
            }}
            type="button"
            role="tab"
            id={`pool-tab-${tab}`}
            aria-selected={selected === tab}
            aria-controls={`pool-panel-${tab}`}
            tabIndex={selected === tab ? 0 : -1}
            className="pool-tabs__tab"
            onClick={() => select(tab)}
            onKeyDown={onKeyDown}
          >
            {t(`tabs.${tab}`)}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div key={tab} role="tabpanel" id={`pool-panel-${tab}`} aria-labelledby={`pool-tab-${tab}`} hidden={selected !== tab} className="pool-tabs__panel">
          {panels[tab]}
        </div>
      ))}
    </div>
  );
}
