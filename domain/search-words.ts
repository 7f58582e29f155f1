/**
 * The kept word lists the analysis of domain/arabic.ts reads (docs/decisions/0070-search-analysis.md and 0142):
 * stop-words, words whose first letters are their own, the parts of compound names, the attached pronouns and the
 * words whose endings only look like them. Apart from the rules so that a list can be read (and grown) whole.
 * Surface or folded forms as each list says; pure data, bundled with the highlighter.
 */

/**
 * Words that say nothing about a text, as written (surface forms, with the spellings news copy really uses).
 * They are stored by their exact form only, without keys: a query word that folds to one of them is ignored
 * when the query has other words, and a query made only of them looks for exact forms (so the name علي,
 * which folds like the preposition على, finds the name and not the preposition).
 */
export const STOP_WORDS: readonly string[] = [
  // Arabic: prepositions, conjunctions, pronouns, demonstratives, relatives, auxiliaries, common adverbs.
  ...`في فى من إلى الى إلي الي على عن مع عند لدى لدي حتى حتي منذ مذ خلال بين بعد قبل دون ضد نحو حول عبر لدن
  و ف ثم أو او أم ام بل لكن لكنه لكنها ولكن غير سوى إلا الا إما اما أما
  هو هي هم هن هما نحن أنا انا أنت انت أنتم انتم إياه اياه
  هذا هذه هذي ذلك تلك هؤلاء هولاء أولئك اولئك هذان هذين هاتان هاتين ذاك هنا هناك هنالك
  الذي الذى التي التى الذين اللذين اللتين اللاتي اللواتي اللائي ما ماذا من متى متي أين اين كيف لماذا لم لن لا ليس ليست
  إن ان أن إنه انه أنه إنها انها أنها إنما انما أنما لأن لان كأن كان كانت كانوا يكون تكون يكن أصبح اصبح أصبحت اصبحت
  قد لقد فقد وقد وقال قال قالت يقول تقول ثمة كل كلا كلتا بعض أي اي أية اية أيضا ايضا كما مثل كذلك هكذا إذ اذ إذا اذا إذن اذن لو لولا
  له لها لهم لهن لهما لنا لك لكم لي به بها بهم بهن بي بنا بك فيه فيها فيهم فيما منه منها منهم مما عنه عنها عنهم عليه عليها عليهم إليه اليه إليها اليها إليهم اليهم
  معه معها معهم عنده عندها عندهم وهو وهي وهم ومن وفي وعلى وإلى والى وعن ومع وما ولا ولم ولن وأن وان وإن وكان وكانت وهذا وهذه وذلك والتي والذي
  فإن فان فلا فما بأن بان بما بين كما لما عما فيما حيث حين بينما أمام امام خلف فوق تحت لدي يا أيها ايها`.split(/\s+/),
  // French.
  ...`le la les l de des du d un une et en au aux a pour par sur sous dans avec sans chez vers entre est sont etait ete etre avoir ont
  qui que qu quoi dont ou ce cet cette ces se s sa son ses leur leurs il elle ils elles on ne n pas plus ni mais comme y nous vous je j tu
  lui eux me m te t mon ma mes ton ta tes notre nos votre vos tout tous toute toutes aussi tres deja si`.split(/\s+/),
].filter(Boolean);

/**
 * Folded words whose first letters are their own, not a particle or the article: no other reading is stored
 * for them ("وزارة" is not و + "زارة", so a search for زار does not find every ministry). Precision only: a
 * missing entry never loses a match.
 */
export const NO_STRIP_WORDS: readonly string[] = `الله اله المانيا البانيا
  وزير وزيره وزراء وزاره وزارات وطن وطني وطنيه وقت وضع ولايه ولايات والي وكاله وكالات وفد وفاه وجه وحده وثيقه ورقه وصل وقع ولد وسط وسائل وسيله وصول
  وجود واقع واحد واحده وادي واحه ولاته وادان وظيفه ورشه وعد وعي وفق ولي والد والده والدين والدان
  فريق فكره فن فنون فتره فرنسا فلسطين فصل فيلم فوز فرص فرصه فقر فندق فعل
  بلد بلاد بيت بيان بحث بحر بنك برنامج برامج بدايه بطوله بطل بشر بناء بريد بعثه بئر بير
  كتاب كتب كلمه كبير كبيره كثير كرسي كاتب كليه كميه كنز كهرباء
  لجنه لجان لغه لغات لقاء لبنان ليبيا لقب لحظه لون ليل لعبه`
  .split(/\s+/)
  .filter(Boolean);

// ---- Compound names (issue 47) ----

/**
 * The first parts of compound names, folded: «عبد الله», «أبو بكر», «ولد الشيخ», «بن علي», «منت أحمد», «ذو الفقار». A
 * spaced pair is also indexed glued («عبدالله»), and a glued name is also indexed by its two parts, so either
 * writing finds the other. بو (Maghrebi «bou») only spaced: glued, it starts too many words (بوابة, بورصة, بولندا).
 */
export const NAME_HEADS: readonly string[] = ["عبد", "ابو", "ابي", "ابا", "بو", "ولد", "ول", "بن", "ابن", "بنت", "منت", "ال", "ذو", "ذي", "ذا"];

/**
 * The heads read off a glued word without more ado (what follows them is the rest of a name: عبدالرحمن,
 * أبوبكر, أبوظبي, ولدالشيخ) when at least three letters follow; the other heads only before the article
 * («بنالشيخ», «ذوالفقار»): glued, بن, بنت and ول begin common words (بنزين, بنات, ولاية).
 */
export const GLUED_HEADS: readonly string[] = ["عبد", "ابو", "ابي", "ابا", "ولد"];
export const GLUED_BEFORE_ARTICLE: readonly string[] = ["بن", "ابن", "بنت", "منت", "ذو", "ذي", "ذا", "محمد"];

/**
 * Heads that make a compound name only before the article, spaced as glued (محمد الأمين, محمد المختار: «محمدالأمين»):
 * محمد before any other word is a name of its own (محمد ولد أحمد), and would glue to every verb that follows it.
 */
export const HEADS_BEFORE_ARTICLE: readonly string[] = ["محمد"];

/**
 * One name part in its other writings (third round, decision 0152): the case of أبو (أبو بكر, جامعة أبي بكر, رأيت أبا
 * بكر), ابن written بن between two names, and the Hassaniya منت for بنت and ول for ولد. A compound name with one of
 * them is also stored glued with the others (أبي بكر: ابوبكر), and a query that types one before a name looks for the
 * others too (domain/arabic.ts), so a reader who types the other writing finds it either way.
 */
export const HEAD_FORMS: readonly (readonly string[])[] = [
  ["ابو", "ابي", "ابا"],
  ["ابن", "بن"],
  ["بنت", "منت"],
  ["ولد", "ول"],
];
const HEAD_FORMS_OF = new Map(HEAD_FORMS.flatMap((forms) => forms.map((f) => [f, forms] as const)));

/** A head and its other writings, the head first (itself alone when it has none). */
export const headForms = (head: string): readonly string[] => [head, ...(HEAD_FORMS_OF.get(head) ?? []).filter((f) => f !== head)];

/** The second parts of compound names, folded: «نصر الله», «نور الدين», read off a glued word («نورالدين»). */
export const NAME_TAILS: readonly string[] = ["الله", "الدين", "الرحمن"];

const GLUED_HEAD_SET = new Set(GLUED_HEADS);
const NAME_HEAD_SET = new Set(NAME_HEADS);
const NAME_TAIL_SET = new Set(NAME_TAILS);
const BEFORE_ARTICLE_SET = new Set(HEADS_BEFORE_ARTICLE);

/**
 * A compound name written glued, as its two parts: «عبدالرحمن» → عبد + الرحمن, «أبوبكر» → ابو + بكر, «نورالدين» →
 * نور + الدين (search-words.ts says which heads and tails, and when). Null for any other word.
 */
export function gluedNameParts(folded: string): [head: string, tail: string] | null {
  for (const head of GLUED_HEAD_SET) {
    if (!folded.startsWith(head) || [...folded].length - head.length < 3) continue;
    const tail = folded.slice(head.length);
    // Not a verb's ending (ولدت، ولدوا) nor a plural that starts like أبو (أبوابها).
    if ((head === "ولد" && /^[تو]/.test(tail)) || (head.startsWith("اب") && tail.startsWith("اب"))) continue;
    return [head, tail];
  }
  for (const head of GLUED_BEFORE_ARTICLE)
    if (folded.startsWith(`${head}ال`) && [...folded].length - head.length >= 4) return [head, folded.slice(head.length)];
  for (const tail of NAME_TAIL_SET) {
    const head = folded.slice(0, -tail.length);
    // Three letters at least, and not a particle before the article (والدين، للوالدين are parents).
    if (folded.endsWith(tail) && [...head].length >= 3 && !head.endsWith("و")) return [head, tail];
  }
  return null;
}

/**
 * The glued form of each compound name a text writes spaced («عبد الله» → «عبدالله», «أبو بكر» → «أبوبكر»), to
 * index beside its words: a query that types the name glued finds the spaced text. Given the text's words in order
 * and the analysis's fold (domain/arabic.ts, which imports this module).
 */
export function spacedNames(words: readonly string[], fold: (surface: string) => string): string[] {
  return spacedNamePairs(words, fold).map(({ at }) => words[at] + words[at + 1]);
}

/**
 * The compound names a text writes spaced: where each starts in `words`, its head (folded, without a particle) and
 * what follows it (folded). The glued forms of `spacedNames`, and the other writings of a head (`headForms`).
 */
export function spacedNamePairs(words: readonly string[], fold: (surface: string) => string): { at: number; head: string; second: string }[] {
  const out: { at: number; head: string; second: string }[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const [first, second] = [fold(words[i]), fold(words[i + 1])];
    if (!/[\u0621-\u064A]/.test(second)) continue;
    // A head may carry a particle (لعبد الله); a head before another (ولد عبد العزيز) is glued to the name that follows.
    const bare = NAME_HEAD_SET.has(first) ? first : first.replace(/^[وفبكل](?=...)/, "");
    const head = NAME_HEAD_SET.has(bare) || (BEFORE_ARTICLE_SET.has(bare) && second.startsWith("ال"));
    if ((head && !NAME_HEAD_SET.has(second)) || NAME_TAIL_SET.has(second)) out.push({ at: i, head: head ? bare : first, second });
  }
  return out;
}

// ---- Attached pronouns and duals (issue 47) ----

/**
 * Object and possessive pronouns the stemmer does not remove by itself (it removes ه, ها and ي), longest first:
 * كتابنا, كتابهم, كتابهما, كتابكم. Read off as a second reading of the word (the first stays), when three letters
 * at least remain. ك alone and كن are left out: they end too many words (ملك, بنك, مسكن, أماكن).
 */
export const PRONOUN_SUFFIXES: readonly string[] = ["هما", "كما", "هم", "هن", "كم", "نا"];

/**
 * Words (folded, without particles or article) whose last letters only look like a pronoun: their second reading
 * would meet another word (تفاهم is not تفا + هم; محاكم is a plural; دراهم…). Found by measuring the demo
 * and bench vocabularies (docs/decisions/0142): precision only, a missing entry never loses a match.
 */
export const NOT_PRONOUN_WORDS: readonly string[] = `تفاهم مساهم دراهم مراهم تراكم محاكم مراهن احيانا امينا زمانا مكانا بيانا كورونا فيينا اثينا`
  .split(/\s+/)
  .filter(Boolean);

/**
 * Words (folded) that end in و of their own, not a sound plural in construct that lost its ن (مسؤولو الوزارة is
 * مسؤولون; بيانو is not بيان): left out of that reading. Loanwords mostly; precision only.
 */
export const OWN_WAW_WORDS: readonly string[] = `فيديو راديو ستوديو سيناريو بيانو كازينو ماريو طوكيو بورتو كاكاو اورو يورو`.split(/\s+/).filter(Boolean);

/**
 * A final ت before a pronoun, the dual or a dual in construct is a taa marbuta (مدرستنا, مدرستك, مدينتان, مدينتا
 * نواكشوط): the word is also read with ة, when three letters at least come before it. Left out: the words that end
 * in a ت of their own, where that reading would meet another word (صامتين is not صام, بيروتي is not بير).
 */
export const OWN_TA_WORDS: readonly string[] = `صامت ثابت مءقت موقت ساكت بيروت كويت كبريت ياقوت تابوت عنكبوت ملكوت جبروت طاغوت
  نبات ثبات سكوت توقيت تصويت مبيت ثبوت سبت بخت نعت زيت بيت وقت صوت موت`
  .split(/\s+/)
  .filter(Boolean);
