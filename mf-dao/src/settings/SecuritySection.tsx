import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure, type SessionInfo } from '@app/contracts';
import { Field, FormSummary, useNotify, useRemote } from '@app/ui';
import { useMessage } from '../forms/errors';
import { useSettingsForm } from '../forms/useSettingsForm';
import { passwordFormSchema } from './schemas';

/** The browser and system a User-Agent names, shortly; the whole text is in the title. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /(Edg|OPR|Firefox|Chrome|Chromium|Safari)\/[\d.]+/.exec(userAgent)?.[0]?.replace('Edg/', 'Edge/').replace('OPR/', 'Opera/') ?? '';
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux|CrOS)/.exec(userAgent)?.[0]?.replace('Mac OS X', 'macOS') ?? '';
  return [browser.split('.')[0], system].filter(Boolean).join(', ') || userAgent.slice(0, 40);
}

/** Change the password (the other sessions end, and payouts wait for a while), and the active sessions. */
export function SecuritySection({ onChanged }: { onChanged?(): void } = {}) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const notify = useNotify();
  const message = useMessage();
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const form = useSettingsForm(passwordFormSchema, { currentPassword: '', password: '', passwordRepeat: '' });

  const load = useCallback(async () => {
    try {
      setSessions((await api.call('settingsSessions')).items);
    } catch {
      setSessions([]);
    }
  }, [api]);
  useEffect(() => void load(), [load]);

  const change = form.submit(async ({ currentPassword, password }) => {
    try {
      const answer = await api.call('settingsPassword', { body: { currentPassword, password } });
      form.reset();
      form.succeed(answer.message);
      void load();
      onChanged?.();
    } catch (error) {
      form.fail(error);
    }
  });

  const endOthers = async () => {
    try {
      const answer = await api.call('settingsEndOtherSessions');
      notify({ kind: 'success', message: message(answer.message) });
      void load();
    } catch (error) {
      notify({ kind: 'error', title: t('form.errorTitle'), message: message(apiFailure(error)?.message ?? t('form.failed')) });
    }
  };

  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language === 'ru' ? 'ru-RU' : 'en-GB');

  return (
    <section className="card settings__section" aria-labelledby="settings-security">
      <h2 id="settings-security">{t('settings.security.title')}</h2>
      <h3>{t('settings.security.password')}</h3>
      <form className="form" noValidate onSubmit={change} aria-busy={form.busy}>
        <FormSummary text={form.summary} />
        <Field id="settings-current-password" type="password" autoComplete="current-password" label={t('settings.security.current')} {...form.field('currentPassword')} />
        <Field id="settings-new-password" type="password" autoComplete="new-password" label={t('settings.security.new')} hint={t('settings.security.rules')} {...form.field('password')} />
        <Field id="settings-repeat-password" type="password" autoComplete="new-password" label={t('settings.security.repeat')} {...form.field('passwordRepeat')} />
        <p className="field__hint">{t('settings.security.afterChange')}</p>
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={form.busy}>
            {t('settings.security.change')}
          </button>
        </div>
      </form>
      <h3>{t('settings.security.sessions')}</h3>
      {sessions === null ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : (
        <ul className="settings__sessions" data-testid="sessions">
          {sessions.map((s) => (
            <li key={s.id} className="settings__session" data-testid="session">
              <span title={s.userAgent ?? ''}>{deviceOf(s.userAgent)}</span>
              <span>{s.ip ?? '—'}</span>
              <span>{t('settings.security.lastUsed', { when: when(s.lastUsedAt) })}</span>
              {s.current ? <strong>{t('settings.security.thisDevice')}</strong> : null}
            </li>
          ))}
        </ul>
      )}
      <div className="form__actions">
        <button type="button" className="btn btn--outline" onClick={endOthers} disabled={!sessions || sessions.length < 2}>
          {t('settings.security.endOthers')}
        </button>
      </div>
    </section>
  );
}
