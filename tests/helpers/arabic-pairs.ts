/**
 * Word pairs the Arabic search normaliser must treat as the same word: as written (hamza, diacritics, ta
 * marbuta, alef maqsura, tatweel, Arabic-Indic digits…) and as a reader types it on a phone. Used by the
 * unit test of normalizeArabic() and by the search integration test (JS = SQL, and a match both ways).
 */
export const ARABIC_PAIRS: [written: string, typed: string, rule: string][] = [
  ["إسلام", "اسلام", "alef with hamza below"],
  ["مدرسة", "مدرسه", "ta marbuta"],
  ["مُوريتانيا", "موريتانيا", "damma"],
  ["قرآن", "قران", "alef madda"],
  ["مستشفى", "مستشفي", "alef maqsura"],
  ["أحمد", "احمد", "alef with hamza above"],
  ["إمارة", "اماره", "hamza below and ta marbuta"],
  ["الآن", "الان", "madda inside a word"],
  ["شِنْقِيطُ", "شنقيط", "kasra, sukun, damma"],
  ["٢٠٢٤", "2024", "Arabic-Indic digits"],
  ["۱۴۴۵", "1445", "Persian digits"],
  ["ٱلرحمن", "الرحمن", "alef wasla"],
  ["مسؤول", "مسوول", "hamza on waw"],
  ["رئيس", "رييس", "hamza on ya"],
  ["القاهــرة", "القاهره", "tatweel"],
  ["مكتبة", "مكتبه", "ta marbuta"],
  ["أطار", "اطار", "alef with hamza above (a town)"],
  ["آدرار", "ادرار", "alef madda (a region)"],
  ["وَلَاتَةُ", "ولاته", "diacritics and ta marbuta"],
  ["فتوى", "فتوي", "alef maqsura"],
  ["إبراهيم", "ابراهيم", "alef with hamza below"],
  ["عَلَّمَ", "علم", "shadda and fatha"],
  ["الحسّانية", "الحسانيه", "shadda and ta marbuta"],
  ["مُحَمَّدٌ", "محمد", "tanwin"],
  ["الصَّلَوٰةِ", "الصلوه", "superscript alef"],
  ["ذَٰلِكَ", "ذلك", "superscript alef"],
  ["هيئة", "هييه", "hamza on ya and ta marbuta"],
  ["ذِكْرَى", "ذكري", "alef maqsura with diacritics"],
  ["مصطفى", "مصطفي", "alef maqsura in a name"],
  ["أُسرة", "اسره", "hamza, damma, ta marbuta"],
  ["NOUAKCHOTT", "nouakchott", "Latin case"],
  ["École", "ecole", "French accent and case"],
];
