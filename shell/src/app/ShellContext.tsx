import { createContext, useContext } from 'react';
import type { i18n as I18n } from 'i18next';
import type { RuntimeManifest } from '@app/contracts';
import type { ShellBus } from '@app/ui';

export interface ShellServices {
  bus: ShellBus;
  i18n: I18n;
  manifest: RuntimeManifest;
  brandTitle: string;
}

export const ShellContext = createContext<ShellServices | null>(null);

export function useShell(): ShellServices {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell outside the shell');
  return value;
}
