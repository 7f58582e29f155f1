import type { CategorySeed } from "./types.ts";

/**
 * One parent per section of the site, children as the section's filter chips. Slugs are global (the
 * categories table has one unique slug), so the news section reuses the `politics` and `culture` parents
 * for its politics and culture news rather than inventing second slugs the spec does not know.
 * Parents come first: seed.ts inserts them before resolving the children's parent_id by slug.
 */
export const CATEGORIES: CategorySeed[] = [
  // Culture and heritage
  {
    slug: "culture",
    name: "الثقافة والتراث",
    nameFr: "Culture et patrimoine",
    type: "culture",
    description: "التراث المادي واللامادي لموريتانيا والصحراء: الموسيقى والحرف والمخطوطات والمدن القديمة.",
    descriptionFr: "Le patrimoine matériel et immatériel de la Mauritanie et du Sahara.",
  },
  {
    slug: "music",
    name: "الموسيقى والفنون",
    nameFr: "Musique et arts de la scène",
    type: "culture",
    parent: "culture",
    description: "التيدينيت والآردين وأطوار الموسيقى الحسانية.",
    descriptionFr: "Tidinit, ardin et modes de la musique maure.",
  },
  {
    slug: "crafts",
    name: "الصناعات التقليدية",
    nameFr: "Artisanat traditionnel",
    type: "culture",
    parent: "culture",
    description: "الجلد والفضة والخيام والحصير.",
    descriptionFr: "Cuir, argent, tentes et nattes.",
  },
  {
    slug: "manuscripts",
    name: "المخطوطات والمكتبات",
    nameFr: "Manuscrits et bibliothèques",
    type: "culture",
    parent: "culture",
    description: "خزائن شنقيط ووادان وتيشيت وولاتة والمحاظر.",
    descriptionFr: "Bibliothèques de Chinguetti, Ouadane, Tichitt, Oualata et les mahadras.",
  },
  {
    slug: "architecture",
    name: "العمارة والمدن التاريخية",
    nameFr: "Architecture et villes anciennes",
    type: "culture",
    parent: "culture",
    description: "القصور الحجرية والبيوت المزخرفة وصيانتها.",
    descriptionFr: "Ksour de pierre, maisons ornées et leur sauvegarde.",
  },

  // Politics and history (also the news section's "politics" category)
  {
    slug: "politics",
    name: "السياسة والتاريخ",
    nameFr: "Politique et histoire",
    type: "politics",
    description: "قراءات في التاريخ السياسي للمنطقة وعلاقات موريتانيا بجوارها العربي والإفريقي.",
    descriptionFr: "Histoire politique de la région et relations de la Mauritanie avec ses voisins.",
  },

  // Literature and poetry (the literature page filters on exactly these four child slugs)
  {
    slug: "literature",
    name: "الأدب والشعر",
    nameFr: "Littérature et poésie",
    type: "literature",
    description: "بلاد المليون شاعر: الشعر الفصيح والحساني والنثر والحكاية الشعبية.",
    descriptionFr: "Le pays du million de poètes : poésie classique et hassaniya, prose et contes.",
  },
  { slug: "poetry", name: "الشعر", nameFr: "Poésie", type: "literature", parent: "literature" },
  { slug: "prose", name: "النثر", nameFr: "Prose", type: "literature", parent: "literature" },
  { slug: "folktales", name: "الحكايات الشعبية", nameFr: "Contes populaires", type: "literature", parent: "literature" },
  { slug: "translations", name: "الترجمات", nameFr: "Traductions", type: "literature", parent: "literature" },

  // History of the emirates; the descriptions carry the founding notes the emirates page shows.
  {
    slug: "emirates",
    name: "تاريخ الإمارات",
    nameFr: "Histoire des émirats",
    type: "emirates",
    description: "الإمارات الحسانية التي حكمت البلاد قبل الدولة الحديثة: آدرار والبراكنة وتكانت والترارزة.",
    descriptionFr: "Les émirats hassanes d'avant l'État moderne : Adrar, Brakna, Tagant et Trarza.",
  },
  {
    slug: "adrar",
    name: "إمارة آدرار",
    nameFr: "Émirat de l'Adrar",
    type: "emirates",
    parent: "emirates",
    description: "تأسست نحو سنة 1740، وكانت أطار مركزها، وسيطرت على طرق القوافل ونخيل الواحات.",
    descriptionFr: "Fondé vers 1740 autour d'Atar, maître des routes caravanières et des palmeraies.",
  },
  {
    slug: "brakna",
    name: "إمارة البراكنة",
    nameFr: "Émirat du Brakna",
    type: "emirates",
    parent: "emirates",
    description: "قامت قبل سنة 1600 على الضفة اليمنى لنهر السنغال، واشتهرت بتجارة الصمغ العربي.",
    descriptionFr: "Établi avant 1600 sur la rive droite du fleuve Sénégal, connu pour le commerce de la gomme.",
  },
  {
    slug: "taganit",
    name: "إمارة تكانت",
    nameFr: "Émirat du Tagant",
    type: "emirates",
    parent: "emirates",
    description: "تأسست نحو سنة 1580 على هضبة تكانت، وامتد نفوذها من تجكجة إلى تخوم الحوض.",
    descriptionFr: "Fondé vers 1580 sur le plateau du Tagant, de Tidjikja jusqu'aux confins du Hodh.",
  },
  {
    slug: "trarza",
    name: "إمارة الترارزة",
    nameFr: "Émirat du Trarza",
    type: "emirates",
    parent: "emirates",
    description: "تأسست نحو سنة 1640 في الجنوب الغربي، بين المحيط الأطلسي ونهر السنغال.",
    descriptionFr: "Fondé vers 1640 dans le sud-ouest, entre l'Atlantique et le fleuve Sénégal.",
  },

  // Opinion
  {
    slug: "opinion",
    name: "مقالات الرأي",
    nameFr: "Tribunes et opinions",
    type: "opinion",
    description: "آراء الكتّاب لا تعبّر بالضرورة عن رأي المنصة.",
    descriptionFr: "Les opinions des auteurs n'engagent qu'eux.",
  },
  { slug: "op-ed", name: "رأي", nameFr: "Tribune", type: "opinion", parent: "opinion" },
  { slug: "analysis", name: "تحليل", nameFr: "Analyse", type: "opinion", parent: "opinion" },
  { slug: "columns", name: "أعمدة", nameFr: "Chroniques", type: "opinion", parent: "opinion" },

  // News-only categories (the spec's news slugs are breaking, politics, culture, sports, economy)
  { slug: "breaking", name: "عاجل", nameFr: "Urgent", type: "news" },
  { slug: "sports", name: "رياضة", nameFr: "Sports", type: "news" },
  { slug: "economy", name: "اقتصاد", nameFr: "Économie", type: "news" },

  // The fallback label of the spec ("general") as a real category, for media without a better home.
  { slug: "general", name: "عام", nameFr: "Général", type: "general" },
];
