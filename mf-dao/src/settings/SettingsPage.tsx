import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { Profile } from '@app/contracts';
import { Page, useRemote } from '@app/ui';
import { AvatarSection } from './AvatarSection';
import { PersonalInfo } from './PersonalInfo';
import { MailSection } from './MailSection';
import { PreferencesSection } from './PreferencesSection';
import { SecuritySection } from './SecuritySection';
import { SolvencySection } from './SolvencySection';
import { WalletSection } from './WalletSection';

/** /cabinet/settings: avatar, personal info, wallets, security, preferences, proof of solvency. */
export function SettingsPage() {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setProfile(await api.call('profile'));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [api]);
  useEffect(() => void load(), [load]);

  return (
    <Page title={t('settings.title')}>
      {failed ? (
        <div className="alert alert--warning" role="alert">
          {t('form.loadFailed')}{' '}
          <button type="button" className="btn btn--link" onClick={() => void load()}>
            {t('form.retry')}
          </button>
        </div>
      ) : !profile ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : (
        <div className="settings">
          {profile.withdrawalsHeldUntil ? (
            <div className="alert alert--warning" role="status" data-testid="withdrawals-held">
              {t('settings.held', { until: new Date(profile.withdrawalsHeldUntil).toLocaleString(i18n.language === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }) })}
            </div>
          ) : null}
          <AvatarSection profile={profile} onSaved={setProfile} />
          <PersonalInfo key={`${profile.email}:${profile.pendingEmail}`} profile={profile} onSaved={setProfile} />
          <WalletSection profile={profile} onChanged={() => void load()} />
          <SecuritySection onChanged={() => void load()} />
          <MailSection />
          <PreferencesSection profile={profile} onSaved={setProfile} />
          <SolvencySection />
        </div>
      )}
    </Page>
  );
}
