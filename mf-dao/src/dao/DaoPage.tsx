import { useTranslation } from '@app/singletons/react-i18n';
import { Page } from '@app/ui';

export function DaoPage() {
  const { t } = useTranslation();
  return <Page title={t('dao.title')} />;
}
