import { NavLink, type NavLinkProps } from '@app/singletons/router';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { withLocale } from '../locale/locale';

/** A link to a route in the current language (English paths get /ru under Russian). */
export function LocaleLink({ to, ...rest }: Omit<NavLinkProps, 'to'> & { to: string }) {
  const { bus } = useShell();
  const locale = useObservable(bus.locale, bus.locale.getValue());
  return <NavLink to={withLocale(to, locale)} {...rest} />;
}
