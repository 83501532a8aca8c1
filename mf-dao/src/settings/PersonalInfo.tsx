import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiMessages as M, type Profile } from '@app/contracts';
import { Field, FormSummary, useRemote } from '@app/ui';
import { useSettingsForm } from '../forms/useSettingsForm';
import { SaveButton } from '../forms/useSaveAction';
import { OwnerCodeButton } from './OwnerCodeButton';
import { codeSchema, personalSchema } from './schemas';

interface Props {
  profile: Profile;
  onSaved(profile: Profile): void;
}

/**
 * Name, e-mail, phone and telegram. A new e-mail needs the owner's proof (the password or a code
 * to the current address; an account with only a wallet signs with it), and applies once the code
 * mailed to the new address is entered.
 */
export function PersonalInfo({ profile, onSaved }: Props) {
  const { t } = useTranslation();
  const { api, bus, wallet } = useRemote();
  const form = useSettingsForm(personalSchema, {
    name: profile.name ?? '',
    email: profile.pendingEmail ?? profile.email ?? '',
    phone: profile.phone ?? '',
    telegram: profile.telegram ?? '',
    password: '',
    code: '',
  });
  const typed = (form.watch('email') ?? '').trim().toLowerCase();
  const changing = typed !== '' && typed !== (profile.email ?? '') && typed !== (profile.pendingEmail ?? '');
  const walletOnly = !profile.email && Boolean(profile.walletAddress);

  const save = form.submit(async ({ password, code, ...values }) => {
    try {
      const proof = !changing ? {} : password ? { password } : code ? { code } : {};
      let saved: Profile | undefined;
      if (changing && walletOnly) {
        if (!wallet.proveNewWallet) throw new Error(t('settings.wallet.unsupported'));
        await wallet.proveNewWallet(async (p) => {
          saved = await api.call('userUpdate', { body: { ...values, walletProof: { message: p.message, signature: p.signature } } });
        });
      } else {
        saved = await api.call('userUpdate', { body: { ...values, ...proof } });
      }
      if (!saved) return;
      onSaved(saved);
      bus.send({ type: 'session/reload-user' });
      form.succeed(saved.pendingEmail && saved.pendingEmail !== profile.pendingEmail ? M.emailCodeSent : M.profileUpdated);
    } catch (error) {
      form.fail(error);
    }
  });

  return (
    <section className="card settings__section" aria-labelledby="settings-personal">
      <h2 id="settings-personal">{t('settings.personal.title')}</h2>
      <form className="form" noValidate onSubmit={save} aria-busy={form.busy}>
        <FormSummary text={form.summary} />
        <Field id="settings-name" label={t('settings.personal.name')} autoComplete="name" {...form.field('name')} />
        <Field id="settings-email" type="email" label={t('settings.personal.email')} autoComplete="email" {...form.field('email')} />
        {changing ? (
          <div className="settings__subform" data-testid="email-owner-proof">
            <p className="field__hint">{t(walletOnly ? 'settings.personal.proofWallet' : 'settings.personal.proof')}</p>
            {walletOnly ? null : (
              <>
                <Field id="settings-email-password" type="password" autoComplete="current-password" label={t('settings.personal.password')} {...form.field('password')} />
                <OwnerCodeButton />
                <Field id="settings-email-owner-code" label={t('settings.personal.ownerCode')} autoComplete="one-time-code" inputMode="numeric" {...form.field('code')} />
              </>
            )}
          </div>
        ) : null}
        <Field id="settings-phone" type="tel" label={t('settings.personal.phone')} autoComplete="tel" hint={t('settings.personal.phoneHint')} {...form.field('phone')} />
        <Field id="settings-telegram" label={t('settings.personal.telegram')} hint={t('settings.personal.telegramHint')} {...form.field('telegram')} />
        <SaveButton busy={form.busy} />
      </form>
      {profile.pendingEmail ? <EmailCode pendingEmail={profile.pendingEmail} onSaved={onSaved} /> : null}
    </section>
  );
}

function EmailCode({ pendingEmail, onSaved }: { pendingEmail: string; onSaved(profile: Profile): void }) {
  const { t } = useTranslation();
  const { api, bus } = useRemote();
  const form = useSettingsForm(codeSchema, { code: '' });
  const [done, setDone] = useState(false);
  const confirm = form.submit(async ({ code }) => {
    try {
      const saved = await api.call('settingsEmailConfirm', { body: { code } });
      setDone(true);
      onSaved(saved);
      bus.send({ type: 'session/reload-user' });
      form.succeed(M.emailChanged);
    } catch (error) {
      form.fail(error);
    }
  });
  if (done) return null;
  return (
    <form className="form settings__subform" noValidate onSubmit={confirm} aria-busy={form.busy}>
      <FormSummary text={form.summary} />
      <p className="field__hint">{t('settings.personal.pending', { email: pendingEmail })}</p>
      <Field id="settings-email-code" label={t('settings.personal.code')} autoComplete="one-time-code" inputMode="numeric" {...form.field('code')} />
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={form.busy}>
          {t('settings.personal.confirmEmail')}
        </button>
      </div>
    </form>
  );
}
