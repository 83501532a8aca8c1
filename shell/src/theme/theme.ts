import type { ThemeChoice, ThemeState } from '@app/contracts';
import type { ShellBus } from '@app/ui';

const KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function storedThemeChoice(storage: Pick<Storage, 'getItem'> = localStorage): ThemeChoice {
  const value = storage.getItem(KEY);
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): ThemeState {
  return { choice, resolved: choice === 'system' ? (systemDark ? 'dark' : 'light') : choice };
}

/** Keeps <html data-theme> and the bus in step with the choice and, for "system", the OS. */
export function startThemeService(bus: ShellBus): void {
  const media = matchMedia(DARK_QUERY);
  const apply = (choice: ThemeChoice) => {
    const state = resolveTheme(choice, media.matches);
    document.documentElement.dataset.theme = state.resolved;
    bus.theme.next(state);
  };
  apply(bus.theme.getValue().choice);
  media.addEventListener('change', () => apply(bus.theme.getValue().choice));
  bus.commands$.subscribe((command) => {
    if (command.type !== 'theme/set') return;
    localStorage.setItem(KEY, command.choice);
    apply(command.choice);
  });
}
