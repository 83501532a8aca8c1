import { createContext, useContext } from 'react';
import type { i18n as I18n } from 'i18next';
import type { PageBrand, RemoteTranslations, RuntimeManifest } from '@app/contracts';
import type { ShellBus } from '@app/ui';
import type { SessionService } from '../session/session';
import type { WalletService } from '../wallet/walletService';

export interface ShellServices {
  bus: ShellBus;
  i18n: I18n;
  translations: RemoteTranslations;
  manifest: RuntimeManifest;
  brandTitle: string;
  /** The brand the page is served as: its logos, social links and support address. */
  brand: PageBrand;
  session: SessionService;
  wallet: WalletService;
}

export const ShellContext = createContext<ShellServices | null>(null);

export function useShell(): ShellServices {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell outside the shell');
  return value;
}
