import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import Cropper from 'react-easy-crop';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure, apiMessages as M, type Profile } from '@app/contracts';
import { useNotify, useRemote } from '@app/ui';
import { useMessage } from '../forms/errors';
import { croppedSquare, loadImage, type CropArea } from './avatarImage';

/** What a picked file may be before it is even decoded (the server checks the content again). */
const ACCEPT = 'image/jpeg,image/png,image/webp';
/** A picked file larger than this is refused before decoding: the upload is a small square anyway. */
const PICK_MAX_BYTES = 20 * 1024 * 1024;

/** Pick an image, crop a square with zoom, preview it round, upload a 256 × 256 re-encoding. */
export function AvatarSection({ profile, onSaved }: { profile: Profile; onSaved(profile: Profile): void }) {
  const { t } = useTranslation();
  const { api, bus } = useRemote();
  const notify = useNotify();
  const message = useMessage();
  const [source, setSource] = useState<string | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<CropArea | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const image = useRef<HTMLImageElement | null>(null);

  useEffect(() => () => void (source && URL.revokeObjectURL(source)), [source]);

  const refuse = useCallback((text: string) => {
    setError(message(text));
    setSource(null);
    setPreview(null);
  }, [message]);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError('');
    if (file.size > PICK_MAX_BYTES) return refuse(M.avatarTooLarge);
    const url = URL.createObjectURL(file);
    try {
      image.current = await loadImage(url);
    } catch {
      URL.revokeObjectURL(url);
      return refuse(M.avatarInvalid);
    }
    setZoom(1);
    setCrop({ x: 0, y: 0 });
    setSource(url);
  };

  // The round preview follows the crop as it moves.
  useEffect(() => {
    if (!area || !image.current || !source) return;
    let current = true;
    void croppedSquare(image.current, area).then((out) => current && setPreview(out.dataUrl));
    return () => {
      current = false;
    };
  }, [area, source]);

  const save = async () => {
    if (!area || !image.current) return;
    setBusy(true);
    try {
      const { base64 } = await croppedSquare(image.current, area);
      const saved = await api.call('settingsAvatar', { body: { image: base64 } });
      onSaved(saved);
      bus.send({ type: 'session/reload-user' });
      notify({ kind: 'success', title: t('form.successTitle'), message: message(M.avatarSaved) });
      setSource(null);
      setPreview(null);
    } catch (failure) {
      const text = apiFailure(failure)?.fields.image ?? apiFailure(failure)?.message ?? t('form.failed');
      setError(message(text));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings__section" aria-labelledby="settings-avatar">
      <h2 id="settings-avatar">{t('settings.avatar.title')}</h2>
      <div className="avatar">
        {preview || profile.avatar ? (
          <img className="avatar__preview" src={preview ?? profile.avatar!} alt={t('settings.avatar.preview')} width={96} height={96} data-testid="avatar-preview" />
        ) : (
          <div className="avatar__preview avatar__preview--empty" aria-hidden="true" />
        )}
        <div className={error ? 'field field--invalid' : 'field'}>
          <label htmlFor="settings-avatar-file">{t('settings.avatar.pick')}</label>
          <input id="settings-avatar-file" type="file" accept={ACCEPT} onChange={pick} aria-invalid={error ? true : undefined} aria-describedby={error ? 'settings-avatar-error' : 'settings-avatar-hint'} />
          <p id="settings-avatar-hint" className="field__hint">{t('settings.avatar.hint')}</p>
          {error ? (
            <p id="settings-avatar-error" className="field__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      </div>
      {source ? (
        <div className="avatar__editor">
          <div className="avatar__crop">
            <Cropper disableAutomaticStylesInjection image={source} crop={crop} zoom={zoom} aspect={1} cropShape="round" showGrid={false} onCropChange={setCrop} onZoomChange={setZoom} onCropComplete={(_, pixels) => setArea(pixels)} />
          </div>
          <div className="field">
            <label htmlFor="settings-avatar-zoom">{t('settings.avatar.zoom')}</label>
            <input id="settings-avatar-zoom" type="range" min={1} max={3} step={0.05} value={zoom} onChange={(e) => setZoom(Number(e.target.value))} />
          </div>
          <div className="form__actions">
            <button type="button" className="btn btn--primary" onClick={save} disabled={busy || !area}>
              {busy ? t('form.saving') : t('settings.avatar.save')}
            </button>
            <button type="button" className="btn btn--gray" onClick={() => { setSource(null); setPreview(null); }} disabled={busy}>
              {t('form.cancel')}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
