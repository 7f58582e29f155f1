import { describe, expect, it } from "vitest";
import {
  analyzeQuery,
  highlightParts,
  indexedWords,
  matchRanges,
  nameKeys,
  normalizeArabic,
  queryTerms,
  queryWordKeys,
  searchWords,
  stemArabic,
  stemFrench,
  surfaceArabic,
  textLexemes,
  wordKeys,
  wordMatches,
} from "./arabic.ts";
import { gluedNameParts, headForms, spacedNames } from "./search-words.ts";
import { ARABIC_PAIRS, SEARCH_CORPUS } from "#tests/helpers/arabic-pairs.ts";

/** The marked pieces of `text` for `query`. */
const marked = (text: string, query: string) => matchRanges(text, query).map(([s, e]) => text.slice(s, e));

describe("normalizeArabic", () => {
  it.each(ARABIC_PAIRS)("treats %s and %s as one word (%s)", (written, typed) => {
    expect(normalizeArabic(written)).toBe(normalizeArabic(typed));
    expect(normalizeArabic(written)).not.toBe("");
  });

  it("folds alef forms, alef maqsura, ta marbuta and the hamza seats, and keeps a lone hamza", () => {
    expect(normalizeArabic("أ إ آ ٱ")).toBe("ا ا ا ا");
    expect(normalizeArabic("على مدرسة")).toBe("علي مدرسه");
    expect(normalizeArabic("مؤتمر بئر")).toBe("موتمر بير");
    expect(normalizeArabic("سماء جزء")).toBe("سماء جزء");
  });

  it("removes tatweel, harakat and Quranic marks", () => {
    expect(normalizeArabic("بـــســـم")).toBe("بسم");
    expect(normalizeArabic("كَتَبَ الْوَلَدُ")).toBe("كتب الولد");
    expect(normalizeArabic("بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ ۝")).toBe("بسم الله الرحمن الرحيم");
    expect(normalizeArabic("قُلْ ۖ هُوَ")).toBe("قل هو");
  });

  it("turns Arabic-Indic and Persian digits into 0-9", () => {
    expect(normalizeArabic("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹")).toBe("0123456789 0123456789");
  });

  it("lower-cases Latin by table and folds French accents", () => {
    // The ligatures as two letters (issue 31): readers type "oeuvre" for «œuvre».
    expect(normalizeArabic("Chinguetti ÉTÉ Çà Œuvre cœur ex æquo")).toBe("chinguetti ete ca oeuvre coeur ex aequo");
    // Other scripts are left alone: folding them would depend on the database's locale.
    expect(normalizeArabic("ΑΒΓ")).toBe("ΑΒΓ");
  });

  it("makes punctuation and every kind of space one plain space, trimmed", () => {
    expect(normalizeArabic("  شنقيط،\u00A0وادان؛\tتيشيت\n\nولاتة؟  ")).toBe("شنقيط وادان تيشيت ولاته");
    expect(normalizeArabic("«إمارة آدرار»: النخيل…")).toBe("اماره ادرار النخيل");
    expect(normalizeArabic("l'ardin — 100%")).toBe("l ardin 100");
  });

  it("removes invisible characters (zero-width, bidi marks, soft hyphen)", () => {
    expect(normalizeArabic("مدر\u200Cسة\u200F")).toBe("مدرسه");
    expect(normalizeArabic("extra\u00ADordinary")).toBe("extraordinary");
    expect(normalizeArabic("e\u0301cole")).toBe("ecole");
  });

  it("is idempotent and leaves empty input empty", () => {
    for (const [a, b] of ARABIC_PAIRS) {
      expect(normalizeArabic(normalizeArabic(a))).toBe(normalizeArabic(a));
      expect(normalizeArabic(b)).toBe(normalizeArabic(normalizeArabic(b)));
    }
    expect(normalizeArabic("")).toBe("");
    expect(normalizeArabic(" \u064E ، ")).toBe("");
  });
});

describe("highlighting", () => {
  it("finds words typed without hamza in text written with it", () => {
    const title = "إمارة آدرار: النخيل والقوافل وسلطة الأمراء";
    expect(marked(title, "امارة ادرار")).toEqual(["إمارة", "آدرار"]);
    expect(marked(title, "الامراء")).toEqual(["الأمراء"]);
  });

  it("marks each query's own words in a text the other queries read before (what is kept across queries is the text's, not a match)", () => {
    const text = "والثقافة والسياسة في نواكشوط، والثقافة أولا";
    expect(marked(text, "ثقافة")).toEqual(["والثقافة", "والثقافة"]);
    expect(marked(text, "سياسة")).toEqual(["والسياسة"]);
    expect(marked(text, "نواكشوط ثقافة")).toEqual(["والثقافة", "نواكشوط", "والثقافة"]);
    expect(marked(text, "الرياضة")).toEqual([]);
  });

  it("finds words typed with hamza or diacritics in text written without them", () => {
    expect(marked("اسلام في موريتانيا", "إسلام مُوريتانيا")).toEqual(["اسلام", "موريتانيا"]);
  });

  it("marks whole words, harakat and attached prefixes included", () => {
    expect(marked("شِنْقِيطُ مدينة", "شنقيط")).toEqual(["شِنْقِيطُ"]);
    expect(marked("المدرسة الكبرى", "مدرسه")).toEqual(["المدرسة"]);
    expect(marked("وبالإمارة، والقوافل", "اماره")).toEqual(["وبالإمارة"]);
    expect(marked("عام ٢٠٢٤م", "2024")).toEqual(["٢٠٢٤م"]);
    expect(marked("L'émirat de l'Adrar", "emirats")).toEqual(["émirat"]);
    // Words, not pieces of words: the search finds neither, so neither is marked.
    expect(marked("L'émirat de l'Adrar", "emir")).toEqual([]);
  });

  it("merges overlapping matches and ignores one-letter words", () => {
    expect(marked("القاهرة", "القاهرة قاهر")).toEqual(["القاهرة"]);
    expect(marked("دار الأمراء", "امر امراء")).toEqual(["الأمراء"]);
    expect(marked("و في", "و")).toEqual([]);
    expect(queryTerms("و  مدرسة، مدرسه مدرسة")).toEqual(["مدرسة", "مدرسه"]);
  });

  it("returns nothing when nothing matches, and offsets stay right after surrogate pairs", () => {
    expect(marked("نواكشوط", "تمبكتو")).toEqual([]);
    expect(marked("🐪 قافلة الملح", "الملح")).toEqual(["الملح"]);
  });

  it("cuts the text into pieces that put it back together", () => {
    const text = "رقمنة مخطوطات وادان: سباق مع الأرضة والرطوبة";
    const parts = highlightParts(text, "الارضه وادان");
    expect(parts.map((p) => p.text).join("")).toBe(text);
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(["وادان", "الأرضة"]);
    expect(highlightParts("نص", "كلمة")).toEqual([{ text: "نص", match: false }]);
  });
});

describe("the surface form", () => {
  it("reads Arabic presentation forms pasted from a PDF as letters (NFKC)", () => {
    expect(surfaceArabic("ﺍﻟﺜﻘﺎﻓﺔ ﻭﺍﻟﻔﻨﻮﻥ")).toBe("الثقافة والفنون");
    expect(surfaceArabic("ﻻﻋﺐ ﷲ")).toBe("لاعب الله");
    expect(normalizeArabic("ﷺ")).toBe("صلي الله عليه وسلم");
  });

  it("reads Persian and Urdu letter forms as Arabic ones", () => {
    expect(surfaceArabic("کتاب موسیقی مدرسہ مھرجان مدرسە")).toBe("كتاب موسيقي مدرسه مهرجان مدرسه");
    expect(normalizeArabic("الگيطنة أزوگي ڤيديو پاريس")).toBe("القيطنه ازوقي فيديو باريس");
  });

  it("cuts words at markup and between digits and letters", () => {
    expect(searchWords("<p>عام ٢٠٢٤م</p> &nbsp; و L'École 5")).toEqual(["عام", "2024", "ecole", "5"]);
  });
});

describe("the keys of a word", () => {
  it("reads attached particles and the article off, in every combination", () => {
    for (const w of [
      "ثقافة",
      "الثقافة",
      "والثقافة",
      "فالثقافة",
      "بالثقافة",
      "كالثقافة",
      "للثقافة",
      "وللثقافة",
      "فللثقافة",
      "وبالثقافة",
      "فبالثقافة",
      "وكالثقافة",
    ]) {
      expect(wordKeys(w), w).toContain("ثقاف");
    }
    expect(wordKeys("ومهرجان")).toContain(queryWordKeys("مهرجان")[0]);
    expect(wordKeys("للجنة")).toContain(queryWordKeys("لجنة")[0]);
  });

  it("does not read a particle off a word whose first letter is its own", () => {
    expect(wordKeys("وزارة")).toEqual(["وزار"]);
    expect(wordKeys("كتاب")).toEqual(["كتاب"]);
    expect(wordKeys("ولد")).toEqual(["ولد"]);
    expect(wordKeys("الله")).toEqual(queryWordKeys("الله"));
  });

  it("reduces sound plurals, the dual, the feminine and nisba endings", () => {
    const key = (w: string) => queryWordKeys(w)[0];
    for (const w of ["معلمون", "معلمين", "معلمة", "معلمات", "معلمان", "المعلمين"]) expect(key(w), w).toBe(key("معلم"));
    for (const w of ["ثقافي", "ثقافية", "ثقافات"]) expect(key(w), w).toBe(key("ثقافة"));
    expect(stemArabic(stemArabic("موريتانيين"))).toBe(stemArabic("موريتانيين"));
  });

  it("finds مسئول and مسؤول in each other, and a word without its final hamza", () => {
    expect(wordKeys("مسؤول")).toEqual(expect.arrayContaining([queryWordKeys("مسئول")[0]]));
    expect(queryWordKeys("سماء")).toEqual(queryWordKeys("سما"));
    expect(queryWordKeys("شيء")).toEqual(expect.arrayContaining(wordKeys("شئ").filter((k) => queryWordKeys("شيء").includes(k))));
  });

  it("reads a letter typed three times or more once, in a query", () => {
    expect(queryWordKeys("شكراااا")).toEqual(queryWordKeys("شكرا"));
    expect(analyzeQuery("جووووول").words[0].surface).toBe("جول");
  });

  it("keeps a Latin run of three letters as typed, as the stored word keeps it (www, XIII, a code)", () => {
    for (const word of ["tmwwweqk4", "www", "xiii"]) expect(queryWordKeys(word)).toEqual(expect.arrayContaining(wordKeys(word)));
    expect(analyzeQuery("Louis XIII").words.map((w) => w.surface)).toContain("xiii");
  });

  it("stems French lightly: plural, feminine, -aux", () => {
    expect(stemFrench("nationales")).toBe(stemFrench("national"));
    expect(stemFrench("journaux")).toBe(stemFrench("journal"));
    expect(stemFrench("mauritanienne")).toBe(stemFrench("mauritanien"));
    expect(stemFrench("ecoles")).toBe(stemFrench("ecole"));
  });

  it("always finds a word with itself: its query key is one of its stored keys", () => {
    const words = new Set(SEARCH_CORPUS.flatMap((p) => [...searchWords(p.text), ...searchWords(p.query)]));
    for (const w of words) for (const k of queryWordKeys(w)) if (wordKeys(w).length) expect(wordKeys(w), w).toContain(k);
  });
});

describe("queries", () => {
  it("ignores stop-words among other words, and keeps the exact forms of those a name shares", () => {
    const q = analyzeQuery("الهجوم علي السفارة");
    expect(q.content.map((w) => w.surface)).toEqual(["الهجوم", "السفارة"]);
    expect(q.exact.map((w) => w.surface)).toEqual(["الهجوم", "علي", "السفارة"]);
  });

  it("looks for the exact forms of a query made only of stop-words", () => {
    const q = analyzeQuery("في");
    expect(q.content).toEqual([]);
    expect(q.exact.map((w) => w.surface)).toEqual(["في"]);
    expect(wordMatches("في", q)).toBe(true);
    expect(wordMatches("وفي", q)).toBe(false);
  });

  it("marks what the search finds: particles, plurals, hamza variants", () => {
    expect(marked("تحدث عن التعليم والثقافة والثقافات الشعبية", "ثقافة")).toEqual(["والثقافة", "والثقافات"]);
    expect(marked("صرح مسؤول في الوزارة", "مسئول")).toEqual(["مسؤول"]);
    expect(marked("قال علي إن المطر هطل على المدينة", "علي")).toEqual(["علي"]);
  });
});

describe("how Mauritanians write names and words (issue 47)", () => {
  it("reads a glued compound name as its parts, and indexes a spaced one glued too", () => {
    expect(gluedNameParts("عبدالله")).toEqual(["عبد", "الله"]);
    expect(gluedNameParts("ابوبكر")).toEqual(["ابو", "بكر"]);
    expect(gluedNameParts("نورالدين")).toEqual(["نور", "الدين"]);
    // Words that only start or end like a name: a verb, a plural, parents, petrol.
    for (const word of ["ولدت", "ابوابها", "للوالدين", "بنزين", "بنات"]) expect(gluedNameParts(word), word).toBeNull();
    expect(indexedWords(["قال", "عبد", "الله", "ولد", "عبد", "العزيز"])).toEqual(["قال", "عبد", "الله", "ولد", "عبد", "العزيز", "عبدالله", "عبدالعزيز"]);
    expect(textLexemes("استقبل عبد الرحمن الوفد")).toContain(queryWordKeys("عبدالرحمن")[0]);
    expect(wordKeys("عبدالرحمن")).toEqual(expect.arrayContaining([...queryWordKeys("عبد"), ...queryWordKeys("الرحمن")]));
  });

  it("reads the Hassaniya g as ق and as ك, both ways", () => {
    expect(queryWordKeys("تگانت")).toEqual(expect.arrayContaining(queryWordKeys("تكانت")));
    expect(wordKeys("الگيطنة")).toEqual(expect.arrayContaining(queryWordKeys("القيطنة")));
    expect(marked("وصل الحاكم إلى تگانت مساء", "تكانت")).toEqual(["تگانت"]);
    // Never in what is displayed: the surface form keeps the letter.
    expect(surfaceArabic("تگانت")).toBe("تگانت");
  });

  it("reads attached pronouns and a taa marbuta written ت before them or the dual, unless the word only looks so", () => {
    expect(queryWordKeys("حكومتنا")).toEqual(expect.arrayContaining(queryWordKeys("حكومة")));
    expect(wordKeys("كتابهم")).toEqual(expect.arrayContaining(queryWordKeys("كتاب")));
    expect(wordKeys("مدينتان")).toEqual(expect.arrayContaining(queryWordKeys("مدينة")));
    expect(marked("تتنافس مدينتان على المهرجان", "مدينة")).toEqual(["مدينتان"]);
    // A final ة is a taa marbuta as written, never a pronoun: «تقليدتة» is a typo, not تقليدة + ه.
    expect(queryWordKeys("مدرسته")).toEqual(expect.arrayContaining(queryWordKeys("مدرسة")));
    expect(queryWordKeys("تقليدتة")).not.toEqual(expect.arrayContaining(queryWordKeys("تقليد")));
    expect(queryWordKeys("مساهم")).not.toEqual(expect.arrayContaining(queryWordKeys("مساء")));
    expect(queryWordKeys("صامتين")).not.toEqual(expect.arrayContaining(queryWordKeys("صام")));
  });
});

describe("how Mauritanians write names and words, third round (decision 0152)", () => {
  /** Whether the search finds `text` for `query` by its full match: every content word by one of its keys. */
  const finds = (query: string, text: string) => {
    const lexemes = new Set(textLexemes(text));
    return analyzeQuery(query).content.every((w) => w.keys.some((k) => lexemes.has(k)));
  };

  it("stores a compound name under its head's other writings, spaced and glued, both ways", () => {
    expect(headForms("ابي")).toEqual(["ابي", "ابو", "ابا"]);
    expect(headForms("عبد")).toEqual(["عبد"]);
    for (const [query, text] of [
      ["أبو بكر", "درس في جامعة أبي بكر"],
      ["أبوبكر", "درس في جامعة أبي بكر"],
      ["أبا بكر", "استقبل الوزير أبوبكر"],
      ["بنت أحمد", "قالت فاطمة منت أحمد"],
      ["منتأحمد", "قالت فاطمة بنت أحمد"],
      ["ابن خلدون", "مقدمة بن خلدون"],
      ["بن خلدون", "مقدمة ابن خلدون"],
      ["عبد العزيز", "استقبل محمد ولدعبدالعزيز الوفد"],
      ["محمدالأمين", "قال محمد الأمين"],
      ["محمد الأمين", "قال محمدالأمين"],
    ])
      expect(finds(query, text), `${query} → ${text}`).toBe(true);
    // Keys, never an exact form the text did not write.
    expect(nameKeys(["جامعة", "أبي", "بكر"]).some((k) => k.startsWith("="))).toBe(false);
    expect(nameKeys(["جامعة", "أبي", "بكر"])).toEqual(expect.arrayContaining(["ابوبكر", "ابابكر"]));
    // A head's other writing alone is read by the query, before a name only: stored, ول would meet ولاتة.
    expect(nameKeys(["محمد", "ولد", "أحمد"])).not.toContain("ول");
    expect(analyzeQuery("ولد أحمد").content[0].keys).toEqual(["ول", "ولد"]);
    expect(analyzeQuery("أبي").content[0].keys).toEqual(["ابي"]);
    expect(finds("ولاتة", "قال محمد ولد أحمد")).toBe(false);
    expect(finds("أبيات", "تحدث أبو بكر عن الرحلة")).toBe(false);
    // The page marks the name as the search found it.
    expect(marked("درس في جامعة أبي بكر", "أبو بكر")).toEqual(["أبي", "بكر"]);
    expect(marked("قالت فاطمة منت أحمد", "بنت أحمد")).toEqual(["منت", "أحمد"]);
  });

  it("glues محمد only before the article, and never a name to a word that only follows it", () => {
    expect(spacedNames(["قال", "محمد", "الأمين"], normalizeArabic)).toEqual(["محمدالأمين"]);
    expect(spacedNames(["قال", "محمد", "إن", "الأمين"], normalizeArabic)).toEqual([]);
    expect(gluedNameParts("محمدالامين")).toEqual(["محمد", "الامين"]);
    expect(finds("محمدالأمين", "قال محمد إن الأمين العام غائب")).toBe(false);
    expect(finds("محمدالأمين", "قال محمد المختار")).toBe(false);
    expect(finds("بنت", "افتتح بنك جديد")).toBe(false);
    expect(finds("ابن", "ارتفع سعر البنزين")).toBe(false);
  });

  it("folds the Maghrebi and African letters for search only, both ways", () => {
    expect(normalizeArabic("ڢاس ڧرية ڥيلا مکاں ࢻ ࢼ ࢽ")).toBe("فاس قريه فيلا مكان ف ق ن");
    expect(surfaceArabic("ڢاس ڧرية")).toBe("ڢاس ڧرية");
    expect(queryWordKeys("أݣادير")).toEqual(expect.arrayContaining(queryWordKeys("أكادير")));
    expect(wordKeys("أݣادير")).toEqual(expect.arrayContaining(queryWordKeys("أكادير")));
    expect(marked("سافر الوفد إلى ڢاس", "فاس")).toEqual(["ڢاس"]);
    expect(marked("وصل الوفد إلى أݣادير", "أكادير")).toEqual(["أݣادير"]);
    expect(finds("ڢاس", "زار الوفد قاس")).toBe(false);
  });

  it("reads ك after a taa marbuta written ت, a pronoun on a broken plural, duals and plurals in construct", () => {
    for (const [query, text] of [
      ["حكومتك", "أعلنت الحكومة خطة"],
      ["حكومة", "إن حكومتك ماضية"],
      ["سياراتك", "توقفت السيارة"],
      ["مدارسنا", "افتتحت المدرسة أبوابها"],
      ["قبيلة", "تعايشت قبائلهم قرونا"],
      ["مدينة", "تتنافس مدينتا نواكشوط ونواذيبو"],
      ["مسؤول", "اجتمع مسؤولو الوزارة"],
      ["معلم", "طالب معلمو المدارس"],
    ])
      expect(finds(query, text), `${query} → ${text}`).toBe(true);
    // Words whose ك, ت or و is their own.
    for (const [query, text] of [
      ["مبارك", "انطلقت المباراة"],
      ["مشترك", "عاد المشتري"],
      ["وقتك", "وقف الحارس"],
      ["بيان", "عزف على البيانو"],
      ["ثبات", "ظل ثابتا في موقفه"],
    ])
      expect(finds(query, text), `${query} ↛ ${text}`).toBe(false);
  });
});
