import { useTranslation } from 'react-i18next';
import type { Language } from '../../../preload/contract';

/** The language the window shows now. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'es' ? 'es' : 'en';
}
