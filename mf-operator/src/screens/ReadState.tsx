import type { ReactNode } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { Loaded } from '../client';

/** A read's answer once it is in; until then "Loading…", and the API's message if it failed. */
export function ReadState<T>({ read, children }: { read: Loaded<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  if (read.error) {
    return (
      <p className="alert alert--error" role="alert">
        {read.error}
      </p>
    );
  }
  if (!read.data) return <p aria-busy="true">{t('form.loading')}</p>;
  return <>{children(read.data)}</>;
}

/** What an action did, said once. */
export function DoneNotice({ text }: { text: string | null }) {
  return text ? (
    <p className="alert operator__done" role="status" data-testid="action-done">
      {text}
    </p>
  ) : null;
}
