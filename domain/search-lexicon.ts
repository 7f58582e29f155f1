/**
 * The kept lists and letter tables of the search's forgiving arms (docs/decisions/0129-forgiving-search.md), beside the
 * analysis of domain/arabic.ts that uses them:
 * - BROKEN_PLURALS: common broken plurals and their singulars, read by the analysis (a plural is also indexed
 *   and looked for under its singular's key);
 * - PLACE_NAMES: Mauritanian places, tribes and names as French and English writers spell them, with their
 *   Arabic forms (the Latin ↔ Arabic arm starts from these, then from what the site's own bilingual titles say);
 * - `soundOf`: a consonant skeleton both scripts share (Atar and أطار are both "tr"), the key of the
 *   vocabulary's transliteration index (search_terms.sound);
 * - `typoCost`: an edit distance weighted by how readers mistype (a dot forgotten, a key beside the right one,
 *   a letter dropped or doubled), for the typo-tolerant arm.
 * Pure data and functions: no database, safe in the browser bundle (the highlighter does not need it).
 */

// ---- Broken plurals (in a module of their own: the analysis, which the browser bundles too, needs only them) ----

export { BROKEN_PLURALS } from "./search-plurals.ts";

// ---- Mauritanian places, tribes and names ----

/**
 * Latin spellings (French first, then English and older colonial ones) → the Arabic forms the newsroom
 * writes. A Latin query word found here looks for those forms; an Arabic query word found here also looks
 * for the Latin spellings in the French texts. Each row is one name: its spellings (alternatives, one word
 * each), then its Arabic forms. A name of several words is listed by its distinctive word (Magta Lahjar by
 * lahjar: مقطع alone is a common word).
 */
const NAME_ROWS = `
nouakchott nwakchott nouakschott : نواكشوط
nouadhibou nouadibou nwadhibou : نواذيبو انواذيبو
atar : أطار
rosso : روصو
kiffa : كيفة
zouerate zouerat zouirat zoueratt : الزويرات ازويرات
chinguetti chinguetty chinguiti chinguitti chinguetty shinqit : شنقيط
tidjikja tijikja tidjikdja : تجكجة
ouadane wadane ouadan : وادان
oualata walata : ولاتة
tichitt tichit : تيشيت
kaedi kaédi : كيهيدي
nema néma : النعمة
aleg : ألاك
akjoujt : أكجوجت
boutilimit : بوتلميت
selibaby sélibaby : سيلبابي
aioun ayoun aïoun : العيون
tintane : الطينطان
guerou : كرو
lahjar : لحجار
boghe boghé : بوكي
kaedi : كيهيدي
mederdra : المذرذرة
moghrein : اكرين
fderik fdérik : افديرك
adrar : آدرار أدرار
tagant : تكانت
trarza : الترارزة
brakna : البراكنة
gorgol : كوركول
assaba : لعصابة العصابة
guidimakha : كيدي ماغا
hodh : الحوض
inchiri : إينشيري
tiris : تيرس
sahara : الصحراء
mauritanie mauritania : موريتانيا
chinguit : شنقيط
ould : ولد
mint : بنت منت
sidi : سيدي
cheikh cheik sheikh : الشيخ شيخ
mohamed mohammed muhammad mohamedou : محمد
ahmed ahmad : أحمد
mokhtar moctar mukhtar : المختار
abdallahi abdellahi abdallah : عبد الله
ghazouani ghazwani : الغزواني
daddah : داداه
taya : الطايع
idaouali : إدوعل
kounta kunta : كنتة
smassid : إسماسيد
tajakant tadjakant : تجكانت
oulad : أولاد
barikallah : بريكالله
senegal sénégal : السنغال
maroc morocco : المغرب
mali : مالي
algerie algérie algeria : الجزائر`;

/** Each Latin spelling (folded: lower case, no accent) and the Arabic forms it stands for. */
export const PLACE_NAMES: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const row of NAME_ROWS.split("\n")) {
    const [latin, arabic] = row.split(" : ");
    if (!arabic) continue;
    for (const l of latin.trim().split(/\s+/)) {
      const key = foldLatin(l);
      map.set(key, [...new Set([...(map.get(key) ?? []), ...arabic.trim().split(/\s+/)])]);
    }
  }
  return map;
})();

/** The Latin spellings of an Arabic form of PLACE_NAMES (folded with `fold`, as the caller compares). */
export function latinNamesOf(arabic: string, fold: (word: string) => string): string[] {
  const wanted = fold(arabic);
  return [...PLACE_NAMES].filter(([, forms]) => forms.some((f) => fold(f) === wanted)).map(([latin]) => latin);
}

/** Latin lower case without accents (the analysis' own table is in domain/arabic.ts; names here are plain). */
function foldLatin(word: string): string {
  return word
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

// ---- Sound: a skeleton both scripts share ----

/** Arabic letters (folded) → the consonant class a French spelling writes for them; vowels and ع, ء dropped. */
const ARABIC_SOUND: Record<string, string> = {
  ب: "b",
  ت: "t",
  ث: "t",
  ج: "j",
  ح: "h",
  خ: "k",
  د: "d",
  ذ: "d",
  ر: "r",
  ز: "z",
  س: "s",
  ش: "c",
  ص: "s",
  ض: "d",
  ط: "t",
  ظ: "d",
  غ: "k",
  ف: "f",
  ق: "k",
  ك: "k",
  ل: "l",
  م: "m",
  ن: "n",
  ه: "h",
};

/** French (and English) spellings of those sounds, longest first; vowels, w, y and a silent h dropped. */
const LATIN_SOUND: [spelling: RegExp, sound: string][] = [
  [/x/g, "ks"],
  [/dh/g, "d"],
  [/dj/g, "j"],
  [/tch|ch|sh/g, "C"],
  [/kh|gh|qu|gu|ck|q|c(?![eiy])|g(?![eiy])/g, "k"],
  [/c(?=[eiy])/g, "s"],
  [/g(?=[eiy])/g, "j"],
  [/th/g, "t"],
  [/ph|v/g, "f"],
  [/p/g, "b"],
  [/[aeiouyw]/g, ""],
  // ش is written "c" in the skeleton (its own class); French never leaves a c alone by now.
  [/C/g, "c"],
];

/**
 * The consonant skeleton of a word in either script, or "" when it has fewer than two consonants (too many
 * words share it). Arabic: folded, the article read off, long vowels, ع and ء dropped, a final ه (ة) dropped.
 * Latin: French digraphs read as one sound (ch ش, kh خ, dh ذ, dj ج, ou و), doubled letters once, vowels dropped.
 */
export function soundOf(word: string): string {
  // A query's forgiving arm asks it of every Latin word of up to 50 titles per query word (issue 47): kept.
  if (word.length > 60) return soundOfWord(word);
  let sound = sounds.get(word);
  if (sound === undefined) {
    if (sounds.size >= 20_000) sounds.clear();
    sounds.set(word, (sound = soundOfWord(word)));
  }
  return sound;
}
const sounds = new Map<string, string>();

function soundOfWord(word: string): string {
  let sound = "";
  if (/[\u0621-\u064A]/.test(word)) {
    const skeleton = (w: string) => [...w.replace(/ه$/, "")].map((ch) => ARABIC_SOUND[ch] ?? "").join("");
    // The article read off, unless that leaves one consonant (ألاك is not ال + اك).
    sound = skeleton(word.replace(/^(ال|لل)(?=..)/, ""));
    if (sound.replace(/(.)\1+/g, "$1").length < 2) sound = skeleton(word);
  } else if (/^[a-z]+$/.test(word)) {
    let w = word.replace(/(.)\1+/g, "$1");
    for (const [spelling, s] of LATIN_SOUND) w = w.replace(spelling, s);
    // "h" left alone after the digraphs is mostly silent in French spellings (Mohamed keeps it: م ح م د).
    sound = w.replace(/^h/, "");
  }
  sound = sound.replace(/(.)\1+/g, "$1");
  return sound.length >= 2 ? sound : "";
}

/** A Latin-letter reading of a folded Arabic word, with its vowels, to rank words of one skeleton against a Latin query. */
const ARABIC_READING: Record<string, string> = { ...ARABIC_SOUND, ا: "a", و: "u", ي: "i", ع: "a", ء: "", ة: "a", ه: "h" };

export function latinReading(word: string): string {
  if (/^[a-z]+$/.test(word)) {
    return word
      .replace(/(.)\1+/g, "$1")
      .replace(/ou/g, "u")
      .replace(/dh/g, "d")
      .replace(/dj/g, "j")
      .replace(/x/g, "ks")
      .replace(/tch|ch|sh/g, "C")
      .replace(/kh|gh|qu|gu|ck|q|c(?![eiy])|g(?![eiy])/g, "k")
      .replace(/c/g, "s")
      .replace(/g/g, "j")
      .replace(/th/g, "t")
      .replace(/ph|v/g, "f")
      .replace(/p/g, "b")
      .replace(/[eéèêy]/g, "i")
      .replace(/o/g, "u")
      .replace(/w/g, "u")
      .replace(/C/g, "c");
  }
  const read = (w: string) => [...w.replace(/ه$/, "ا")].map((ch) => ARABIC_READING[ch] ?? "").join("");
  const stripped = word.replace(/^(ال|لل)(?=..)/, "");
  const out = stripped !== word && soundOf(word) !== soundOf(stripped) ? read(word) : read(stripped);
  return out.replace(/(.)\1+/g, "$1");
}

/** Distance between two Latin readings where a vowel is cheap (short vowels are not written in Arabic). */
export function readingDistance(a: string, b: string): number {
  const vowel = (c: string) => "aiu".includes(c);
  const indel = (c: string) => (vowel(c) ? 0.3 : 1);
  const d: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) d[i][0] = d[i - 1][0] + indel(a[i - 1]);
  for (let j = 1; j <= b.length; j++) d[0][j] = d[0][j - 1] + indel(b[j - 1]);
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const sub = a[i - 1] === b[j - 1] ? 0 : vowel(a[i - 1]) && vowel(b[j - 1]) ? 0.3 : 1;
      d[i][j] = Math.min(d[i - 1][j] + indel(a[i - 1]), d[i][j - 1] + indel(b[j - 1]), d[i - 1][j - 1] + sub);
    }
  return d[a.length][b.length];
}

// ---- Typos: an edit distance weighted by how readers mistype ----

/** Letters that differ by their dots only: a dot forgotten or misplaced on a phone. */
const SAME_SHAPE = ["بتثني", "جحخ", "دذ", "رز", "سش", "صض", "طظ", "عغ", "فق"];
/** Letters readers write for one another because they sound alike (Hassaniya and everyday speech). */
const SAME_SOUND = ["ضظ", "زذ", "سثص", "تط", "قكغ", "هح", "اعء", "دض"];
/** Rows of the Arabic phone and PC keyboard: a key's neighbours are a slip of the finger. */
const KEY_ROWS = ["ضصثقفغعهخحجد", "شسيبلاتنمكط", "ءؤرىةوزظ"];

const pairCosts = new Map<string, number>();
const setCost = (a: string, b: string, cost: number) => {
  for (const key of [a + b, b + a]) pairCosts.set(key, Math.min(pairCosts.get(key) ?? 1, cost));
};
for (const group of SAME_SHAPE) for (const a of group) for (const b of group) if (a !== b) setCost(a, b, 0.4);
for (const group of SAME_SOUND) for (const a of group) for (const b of group) if (a !== b) setCost(a, b, 0.5);
for (const row of KEY_ROWS) for (let i = 0; i + 1 < row.length; i++) setCost(row[i], row[i + 1], 0.6);
// Latin: the accents are folded already; the usual French slips.
for (const [a, b] of [
  ["s", "z"],
  ["c", "k"],
  ["c", "s"],
  ["i", "y"],
  ["e", "a"],
  ["o", "u"],
  ["m", "n"],
])
  setCost(a, b, 0.5);

/** The cost of reading `a` where `b` was meant. */
export const substitutionCost = (a: string, b: string) => (a === b ? 0 : (pairCosts.get(a + b) ?? 1));

/** A letter dropped or added: a doubled letter and a long vowel are the cheap ones. */
function indelCost(word: string, i: number): number {
  const c = word[i];
  if (c === word[i - 1] || c === word[i + 1]) return 0.3;
  return "اويeaiou".includes(c) ? 0.5 : 1;
}

/**
 * The weighted Damerau–Levenshtein distance from what was typed to a word of the texts (both folded): 1 for
 * any letter wrong, less for the slips readers make (0.4 a dot, 0.5 a sound, 0.6 a key beside, 0.5 a long
 * vowel or 0.3 a doubled letter dropped or added, 0.6 two letters swapped). Stops early above `limit`.
 */
export function typoCost(typed: string, word: string, limit = Infinity): number {
  const a = [...typed];
  const b = [...word];
  const as = a.join("");
  const bs = b.join("");
  const d: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) d[i][0] = d[i - 1][0] + indelCost(as, i - 1);
  for (let j = 1; j <= b.length; j++) d[0][j] = d[0][j - 1] + indelCost(bs, j - 1);
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(d[i - 1][j] + indelCost(as, i - 1), d[i][j - 1] + indelCost(bs, j - 1), d[i - 1][j - 1] + substitutionCost(a[i - 1], b[j - 1]));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 0.6);
      d[i][j] = best;
      rowMin = Math.min(rowMin, best);
    }
    if (rowMin > limit) return rowMin;
  }
  return d[a.length][b.length];
}

/** How far a typed word may be from a word of the texts and still be read as it: nothing under four letters. */
export function typoLimit(length: number): number {
  return length < 4 ? 0 : length < 6 ? 0.7 : length < 9 ? 1.1 : 1.6;
}
