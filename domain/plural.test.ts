/**
 * Every counted string in every plural category of its language, as a reader sees it: Arabic 0 (zero), 1 (one),
 * 2 (two), 3 (few), 11 (many), 100 (other); French 0 and 1 (one), 2 (other), 1 000 000 (many); English 1 (one),
 * 0 and 2 (other). A counted key added to the translation files without a row here fails the last test.
 */
import { describe, expect, it } from "vitest";
import ar from "./locales/ar/common.json";
import fr from "./locales/fr/common.json";
import en from "./locales/en/common.json";
import { formatCount, formatNumber, pluralCategory, pluralSuffixOf } from "./plural.ts";
import type { Language } from "./language.ts";

const STRINGS: Record<Language, Record<string, unknown>> = { ar, fr, en };
const MILLION_FR = "1\u202f000\u202f000";

type Row = Record<Language, Record<number, string>>;

const AR_RATE = (wait: string) => `استقبلنا عدة رسائل منك للتو. يرجى المحاولة بعد ${wait}؛ رسالتك ما زالت في النموذج.`;
const FR_RATE = (wait: string) =>
  `Nous venons de recevoir plusieurs messages de votre part. Réessayez dans ${wait} ; votre message est toujours dans le formulaire.`;
const EN_RATE = (wait: string) => `We have just received several messages from you. Please try again in ${wait}; your message is still in the form.`;
const AR_TOKEN = (length: string) => `طول الرمز ${length} (لا يُعرض الرمز نفسه)`;

/** Values other than the count some keys take. */
const VALUES: Record<string, Record<string, number>> = { "proposal.summaryHint": { min: 30 } };

const CASES: Record<string, Row> = {
  "push.alert.sent": {
    ar: {
      0: "لم يصل التنبيه إلى أي مشترك",
      1: "أُرسل التنبيه إلى مشترك واحد",
      2: "أُرسل التنبيه إلى مشتركَين",
      3: "أُرسل التنبيه إلى 3 مشتركين",
      11: "أُرسل التنبيه إلى 11 مشتركًا",
      100: "أُرسل التنبيه إلى 100 مشترك",
    },
    fr: {
      0: "Alerte envoyée à 0 abonné",
      1: "Alerte envoyée à 1 abonné",
      2: "Alerte envoyée à 2 abonnés",
      1_000_000: `Alerte envoyée à ${MILLION_FR} d’abonnés`,
    },
    en: { 0: "Alert sent to 0 subscribers", 1: "Alert sent to 1 subscriber", 2: "Alert sent to 2 subscribers" },
  },
  "newsroom.ui.altMissing": {
    ar: {
      0: "لا صور بلا نص بديل.",
      1: "صورة واحدة في هذه المادة بلا نص بديل: لن يعرف قارئ الشاشة ما تُظهره.",
      2: "صورتان في هذه المادة بلا نص بديل: لن يعرف قارئ الشاشة ما تُظهرانه.",
      3: "3 صور في هذه المادة بلا نص بديل: لن يعرف قارئ الشاشة ما تُظهره.",
      11: "11 صورة في هذه المادة بلا نص بديل: لن يعرف قارئ الشاشة ما تُظهره.",
      100: "100 صورة في هذه المادة بلا نص بديل: لن يعرف قارئ الشاشة ما تُظهره.",
    },
    fr: {
      1: "1 image de ce contenu n’a pas de texte alternatif : un lecteur d’écran ne dira pas ce qu’elle montre.",
      2: "2 images de ce contenu n’ont pas de texte alternatif : un lecteur d’écran ne dira pas ce qu’elles montrent.",
      1_000_000: `${MILLION_FR} d’images de ce contenu n’ont pas de texte alternatif : un lecteur d’écran ne dira pas ce qu’elles montrent.`,
    },
    en: {
      1: "One picture of this item has no alt text: a screen reader will not say what it shows.",
      2: "2 pictures of this item have no alt text: a screen reader will not say what they show.",
    },
  },
  "tags.items": {
    ar: { 0: "لا عناصر", 1: "عنصر واحد", 2: "عنصران", 3: "3 عناصر", 11: "11 عنصرًا", 100: "100 عنصر" },
    fr: { 0: "0 élément", 1: "1 élément", 2: "2 éléments", 1_000_000: `${MILLION_FR} d’éléments` },
    en: { 0: "0 items", 1: "1 item", 2: "2 items" },
  },
  "library.deleteInUse": {
    ar: {
      0: "هذا الملف غير مستخدم.",
      1: "هذا الملف مستخدم في عنصر واحد، وسيبقى هذا العنصر بلا ملف:",
      2: "هذا الملف مستخدم في عنصرين، وسيبقيان بلا ملف:",
      3: "هذا الملف مستخدم في 3 عناصر، وستبقى بلا ملف:",
      11: "هذا الملف مستخدم في 11 عنصراً، وستبقى بلا ملف:",
      100: "هذا الملف مستخدم في 100 عنصر، وستبقى بلا ملف:",
    },
    fr: {
      0: "Ce fichier est utilisé par 0 élément, qui restera sans fichier :",
      1: "Ce fichier est utilisé par 1 élément, qui restera sans fichier :",
      2: "Ce fichier est utilisé par 2 éléments, qui resteront sans fichier :",
      1_000_000: `Ce fichier est utilisé par ${MILLION_FR} d’éléments, qui resteront sans fichier :`,
    },
    en: {
      0: "This file is used by 0 items, which will be left without it:",
      1: "This file is used by 1 item, which will be left without it:",
      2: "This file is used by 2 items, which will be left without it:",
    },
  },
  "newsroom.bulk.items": {
    ar: { 0: "0 عنصر", 1: "عنصر واحد", 2: "عنصرين", 3: "3 عناصر", 11: "11 عنصرًا", 100: "100 عنصر" },
    fr: { 0: "0 élément", 1: "1 élément", 2: "2 éléments", 1_000_000: `${MILLION_FR} d’éléments` },
    en: { 0: "0 items", 1: "1 item", 2: "2 items" },
  },
  "newsroom.bulk.confirmText": {
    ar: {
      0: "لم يُحدَّد أي عنصر للحذف.",
      1: "هل أنت متأكد من حذف عنصر واحد؟ لا يمكن التراجع عن هذا الإجراء.",
      2: "هل أنت متأكد من حذف عنصرين؟ لا يمكن التراجع عن هذا الإجراء.",
      3: "هل أنت متأكد من حذف 3 عناصر؟ لا يمكن التراجع عن هذا الإجراء.",
      20: "هل أنت متأكد من حذف 20 عنصرًا؟ لا يمكن التراجع عن هذا الإجراء.",
      100: "هل أنت متأكد من حذف 100 عنصر؟ لا يمكن التراجع عن هذا الإجراء.",
    },
    fr: {
      1: "Voulez-vous vraiment supprimer 1 élément ? Cette action est irréversible.",
      2: "Voulez-vous vraiment supprimer 2 éléments ? Cette action est irréversible.",
      1_000_000: `Voulez-vous vraiment supprimer ${MILLION_FR} d’éléments ? Cette action est irréversible.`,
    },
    en: {
      0: "Are you sure you want to delete 0 items? This cannot be undone.",
      1: "Are you sure you want to delete 1 item? This cannot be undone.",
    },
  },
  "library.results": {
    ar: { 0: "لا توجد ملفات", 1: "ملف واحد", 2: "ملفان", 3: "3 ملفات", 11: "11 ملفاً", 100: "100 ملف" },
    fr: { 0: "0 fichier", 1: "1 fichier", 2: "2 fichiers", 1_000_000: `${MILLION_FR} de fichiers` },
    en: { 0: "0 files", 1: "1 file", 2: "2 files" },
  },
  "library.uploaded": {
    ar: {
      0: "لم يُرفع أي ملف.",
      1: "أضيف ملف واحد إلى المكتبة.",
      2: "أضيف ملفان إلى المكتبة.",
      3: "أضيفت 3 ملفات إلى المكتبة.",
      11: "أضيف 11 ملفاً إلى المكتبة.",
      100: "أضيف 100 ملف إلى المكتبة.",
    },
    fr: {
      0: "0 fichier ajouté à la médiathèque.",
      1: "1 fichier ajouté à la médiathèque.",
      2: "2 fichiers ajoutés à la médiathèque.",
      1_000_000: `${MILLION_FR} de fichiers ajoutés à la médiathèque.`,
    },
    en: { 0: "0 files added to the library.", 1: "1 file added to the library.", 2: "2 files added to the library." },
  },
  "library.usedBy": {
    ar: { 0: "غير مستخدم", 1: "مستخدم في عنصر واحد", 2: "مستخدم في عنصرين", 3: "مستخدم في 3 عناصر", 11: "مستخدم في 11 عنصراً", 100: "مستخدم في 100 عنصر" },
    fr: { 0: "Utilisé par 0 élément", 1: "Utilisé par 1 élément", 2: "Utilisé par 2 éléments", 1_000_000: `Utilisé par ${MILLION_FR} d’éléments` },
    en: { 0: "Used by 0 items", 1: "Used by 1 item", 2: "Used by 2 items" },
  },
  "newsroom.revisions.changedFields": {
    ar: { 0: "لا حقول تغيّرت", 1: "تغيّر حقل واحد", 2: "تغيّر حقلان", 3: "تغيّرت 3 حقول", 11: "تغيّر 11 حقلاً", 100: "تغيّر 100 حقل" },
    fr: { 0: "0 champ modifié", 1: "1 champ modifié", 2: "2 champs modifiés", 1_000_000: `${MILLION_FR} de champs modifiés` },
    en: { 0: "0 fields changed", 1: "1 field changed", 2: "2 fields changed" },
  },
  "newsroom.revisions.unchanged": {
    ar: {
      0: "لا فقرات دون تغيير",
      1: "فقرة واحدة دون تغيير",
      2: "فقرتان دون تغيير",
      3: "3 فقرات دون تغيير",
      11: "11 فقرة دون تغيير",
      100: "100 فقرة دون تغيير",
    },
    fr: { 0: "0 paragraphe inchangé", 1: "1 paragraphe inchangé", 2: "2 paragraphes inchangés", 1_000_000: `${MILLION_FR} de paragraphes inchangés` },
    en: { 0: "0 paragraphs unchanged", 1: "1 paragraph unchanged", 2: "2 paragraphs unchanged" },
  },
  "detail.readTime": {
    ar: { 0: "أقل من دقيقة قراءة", 1: "دقيقة قراءة واحدة", 2: "دقيقتا قراءة", 3: "3 دقائق قراءة", 11: "11 دقيقة قراءة", 100: "100 دقيقة قراءة" },
    fr: { 0: "0 min de lecture", 1: "1 min de lecture", 2: "2 min de lecture", 1_000_000: `${MILLION_FR} min de lecture` },
    en: { 0: "0 min read", 1: "1 min read", 2: "2 min read" },
  },
  "detail.views": {
    ar: {
      0: "لا مشاهدات",
      1: "مشاهدة واحدة",
      2: "مشاهدتان",
      3: "3 مشاهدات",
      10: "10 مشاهدات",
      11: "11 مشاهدة",
      99: "99 مشاهدة",
      100: "100 مشاهدة",
      1234: "1,234 مشاهدة",
    },
    fr: { 0: "0 vue", 1: "1 vue", 2: "2 vues", 1_000_000: `${MILLION_FR} de vues` },
    en: { 0: "0 views", 1: "1 view", 2: "2 views" },
  },
  "sectionPages.views": {
    ar: { 0: "لا قراءات", 1: "قراءة واحدة", 2: "قراءتان", 3: "3 قراءات", 11: "11 قراءة", 100: "100 قراءة" },
    fr: { 0: "0 lecture", 1: "1 lecture", 2: "2 lectures", 1_000_000: `${MILLION_FR} de lectures` },
    en: { 0: "0 reads", 1: "1 read", 2: "2 reads" },
  },
  "contact.messageHint": {
    ar: { 0: "لا يُقبل أي حرف", 1: "حرف واحد على الأكثر", 2: "حرفان على الأكثر", 3: "3 أحرف على الأكثر", 11: "11 حرفاً على الأكثر", 100: "100 حرف على الأكثر" },
    fr: { 0: "0 caractère au plus", 1: "1 caractère au plus", 2: "2 caractères au plus", 1_000_000: `${MILLION_FR} de caractères au plus` },
    en: { 0: "0 characters at most", 1: "1 character at most", 2: "2 characters at most" },
  },
  "contact.rateLimited": {
    ar: { 0: AR_RATE("قليل"), 1: AR_RATE("دقيقة واحدة"), 2: AR_RATE("دقيقتين"), 3: AR_RATE("3 دقائق"), 11: AR_RATE("11 دقيقة"), 100: AR_RATE("100 دقيقة") },
    fr: { 0: FR_RATE("0 minute"), 1: FR_RATE("1 minute"), 2: FR_RATE("2 minutes"), 1_000_000: FR_RATE(`${MILLION_FR} de minutes`) },
    en: { 0: EN_RATE("0 minutes"), 1: EN_RATE("1 minute"), 2: EN_RATE("2 minutes") },
  },
  "social.debug.tokenLength": {
    ar: { 0: AR_TOKEN("صفر"), 1: AR_TOKEN("حرف واحد"), 2: AR_TOKEN("حرفان"), 3: AR_TOKEN("3 أحرف"), 11: AR_TOKEN("11 حرفاً"), 100: AR_TOKEN("100 حرف") },
    fr: {
      0: "0 caractère (le jeton n’est jamais affiché)",
      1: "1 caractère (le jeton n’est jamais affiché)",
      2: "2 caractères (le jeton n’est jamais affiché)",
      1_000_000: `${MILLION_FR} de caractères (le jeton n’est jamais affiché)`,
    },
    en: {
      0: "0 characters (the token itself is never shown)",
      1: "1 character (the token itself is never shown)",
      2: "2 characters (the token itself is never shown)",
    },
  },
  "proposal.summaryHint": {
    ar: {
      0: "من 30 إلى 0 حرف.",
      1: "من 30 إلى حرف واحد.",
      2: "من 30 إلى حرفين.",
      3: "من 30 إلى 3 أحرف.",
      11: "من 30 إلى 11 حرفاً.",
      100: "من 30 إلى 100 حرف.",
      5000: "من 30 إلى 5,000 حرف.",
    },
    fr: { 0: "De 30 à 0 caractère.", 1: "De 30 à 1 caractère.", 2: "De 30 à 2 caractères.", 1_000_000: `De 30 à ${MILLION_FR} de caractères.` },
    en: { 0: "From 30 to 0 characters.", 1: "From 30 to 1 character.", 2: "From 30 to 2 characters." },
  },
  "mail.expiresHours": {
    ar: {
      0: "ينتهي الرابط خلال أقل من ساعة.",
      1: "ينتهي الرابط خلال ساعة واحدة.",
      2: "ينتهي الرابط خلال ساعتين.",
      3: "ينتهي الرابط خلال 3 ساعات.",
      11: "ينتهي الرابط خلال 11 ساعة.",
      24: "ينتهي الرابط خلال 24 ساعة.",
      100: "ينتهي الرابط خلال 100 ساعة.",
    },
    fr: {
      0: "Le lien expire dans 0 heure.",
      1: "Le lien expire dans 1 heure.",
      2: "Le lien expire dans 2 heures.",
      1_000_000: `Le lien expire dans ${MILLION_FR} d’heures.`,
    },
    en: { 0: "The link expires in 0 hours.", 1: "The link expires in one hour.", 2: "The link expires in 2 hours." },
  },
  "mail.expiresDays": {
    ar: {
      0: "ينتهي الرابط خلال أقل من يوم.",
      1: "ينتهي الرابط خلال يوم واحد.",
      2: "ينتهي الرابط خلال يومين.",
      3: "ينتهي الرابط خلال 3 أيام.",
      11: "ينتهي الرابط خلال 11 يوماً.",
      100: "ينتهي الرابط خلال 100 يوم.",
    },
    fr: {
      0: "Le lien expire dans 0 jour.",
      1: "Le lien expire dans 1 jour.",
      2: "Le lien expire dans 2 jours.",
      1_000_000: `Le lien expire dans ${MILLION_FR} de jours.`,
    },
    en: { 0: "The link expires in 0 days.", 1: "The link expires in one day.", 2: "The link expires in 2 days." },
  },
  "cdnNotice.ttl": {
    ar: {
      0: "يرى القرّاء تعديلاتك فور الحفظ.",
      1: "يرى القرّاء تعديلاتك خلال ثانية واحدة على الأكثر من الحفظ، حين تنتهي صلاحية نسخة الصفحة المحفوظة في الذاكرة المؤقتة للموقع.",
      2: "يرى القرّاء تعديلاتك خلال ثانيتين على الأكثر من الحفظ، حين تنتهي صلاحية نسخة الصفحة المحفوظة في الذاكرة المؤقتة للموقع.",
      3: "يرى القرّاء تعديلاتك خلال 3 ثوانٍ على الأكثر من الحفظ، حين تنتهي صلاحية نسخة الصفحة المحفوظة في الذاكرة المؤقتة للموقع.",
      60: "يرى القرّاء تعديلاتك خلال 60 ثانية على الأكثر من الحفظ، حين تنتهي صلاحية نسخة الصفحة المحفوظة في الذاكرة المؤقتة للموقع.",
      300: "يرى القرّاء تعديلاتك خلال 300 ثانية على الأكثر من الحفظ، حين تنتهي صلاحية نسخة الصفحة المحفوظة في الذاكرة المؤقتة للموقع.",
    },
    fr: {
      1: "Les lecteurs voient vos modifications au plus 1 seconde après l’enregistrement, quand la copie de la page gardée en cache expire.",
      60: "Les lecteurs voient vos modifications au plus 60 secondes après l’enregistrement, quand la copie de la page gardée en cache expire.",
      1_000_000: `Les lecteurs voient vos modifications au plus ${MILLION_FR} de secondes après l’enregistrement, quand la copie de la page gardée en cache expire.`,
    },
    en: {
      1: "Readers see your changes at most 1 second after saving, when the copy of the page kept in the site’s cache expires.",
      60: "Readers see your changes at most 60 seconds after saving, when the copy of the page kept in the site’s cache expires.",
    },
  },
};

describe("plural forms", () => {
  it("follow Intl.PluralRules: Arabic's six categories, French one/many/other, English one/other", () => {
    expect([0, 1, 2, 3, 10, 11, 99, 100, 102, 103].map((n) => pluralCategory("ar", n))).toEqual([
      "zero",
      "one",
      "two",
      "few",
      "few",
      "many",
      "many",
      "other",
      "other",
      "few",
    ]);
    expect([0, 1, 2, 1_000_000].map((n) => pluralCategory("fr", n))).toEqual(["one", "one", "other", "many"]);
    expect([0, 1, 2].map((n) => pluralCategory("en", n))).toEqual(["other", "one", "other"]);
  });

  it("write numbers with Latin digits, grouped the language's way", () => {
    expect(formatNumber("ar", 1234567)).toBe("1,234,567");
    expect(formatNumber("fr", 1_000_000)).toBe(MILLION_FR);
    expect(formatNumber("en", 1234)).toBe("1,234");
  });

  for (const [key, row] of Object.entries(CASES)) {
    for (const lang of ["ar", "fr", "en"] as const) {
      it(`${key} in ${lang}`, () => {
        for (const [n, text] of Object.entries(row[lang])) expect(formatCount(STRINGS[lang], lang, key, Number(n), VALUES[key]), `${n}`).toBe(text);
      });
    }
  }

  it("cover every category of every counted key in the translation files", () => {
    const counted = new Set<string>();
    const walk = (node: unknown, prefix: string) => {
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
        const key = prefix ? `${prefix}.${k}` : k;
        if (typeof v === "object" && v !== null) walk(v, key);
        else if (pluralSuffixOf(key)) counted.add(key.replace(/_[a-z]+$/, ""));
      }
    };
    walk(ar, "");
    expect([...counted].sort()).toEqual(Object.keys(CASES).sort());
    for (const [key, row] of Object.entries(CASES)) {
      for (const lang of ["ar", "fr", "en"] as const) {
        const tested = new Set(Object.keys(row[lang]).map((n) => pluralCategory(lang, Number(n))));
        const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
        expect([...tested].sort(), `${key} ${lang}`).toEqual([...categories].sort());
      }
    }
  });

  it("fall back to the other form, then to the key itself, and fill the values given", () => {
    const strings = { a: { b_other: "{{count}} × {{what}}" }, plain: "{{count}} flat" };
    expect(formatCount(strings, "ar", "a.b", 3, { what: "x" })).toBe("3 × x");
    expect(formatCount(strings, "fr", "plain", 2)).toBe("2 flat");
    expect(formatCount(strings, "en", "missing.key", 2)).toBe("missing.key");
    expect(formatCount(undefined, "en", "missing.key", 2)).toBe("missing.key");
    expect(formatCount(strings, "en", "a.b", Number.NaN, { what: "y" })).toBe("0 × y");
  });
});
