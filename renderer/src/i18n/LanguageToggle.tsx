import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { languageOf, type Language } from '../../../common/store-locale';
import { chooseLanguage, localeStore } from './locale';

/**
 * One touch to the other language, for this window only (the top bar's; the customer display has its
 * own). It names the other language in that language's own words ("Español", "English"). Choosing the
 * store's language again forgets the choice, so the window follows the store's setting from then on.
 */
export function LanguageToggle({ className = 'btn btn-small language-toggle' }: { className?: string }) {
  const { t } = useTranslation('common');
  const language = useStore(localeStore, (s) => s.language);
  const storeLanguage = useStore(localeStore, (s) => languageOf(s.store.locale));
  const next: Language = language === 'es' ? 'en' : 'es';
  return (
    <button
      type="button"
      className={className}
      lang={next}
      // Named by what it shows ("Español", or "ES" at 1024 px: a voice user says what they see); what it
      // does is its description.
      title={t(`language.switchLabel_${next}`)}
      onClick={() => chooseLanguage(next === storeLanguage ? null : next)}
    >
      <span className="language-long">{t(`language.switchTo_${next}`)}</span>
      <span className="language-short">{t(`language.short_${next}`)}</span>
    </button>
  );
}
