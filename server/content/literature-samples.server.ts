/**
 * The literature page's fallback lists (public-site.md §2, "Fallback lists are used when the calls fail"):
 * built-in items, marked as demo, shown when the database cannot be read. They have no detail page
 * (negative ids, empty slug), so the page renders them without a link.
 */
import type { LiteratureType } from "#domain/listings.ts";
import type { LiteratureItem } from "./section-types.server.ts";

type Sample = {
  type: LiteratureType;
  title: string;
  titleFr: string;
  excerpt: string;
  excerptFr: string;
  author: string;
  authorFr: string;
  featured: boolean;
  /** Poems only: one verse per entry. */
  verses?: string[];
};

const SAMPLES: Sample[] = [
  {
    type: "poetry",
    featured: true,
    title: "نشيد القافلة",
    titleFr: "Le chant de la caravane",
    excerpt: "قصيدة قصيرة عن الطريق والنجوم التي تهدي الأدلاء في الليل.",
    excerptFr: "Un court poème sur la route et les étoiles qui guident les caravaniers la nuit.",
    author: "محتوى تجريبي",
    authorFr: "Contenu de démonstration",
    verses: [
      "سِرْنا وفي الأفقِ نجمٌ لا يفارقُنا",
      "كأنَّهُ في سوادِ الليلِ مِصباحُ",
      "والرملُ يحفظُ آثارَ الذينَ مضَوا",
      "حتّى تُبدِّدَها في الفجرِ أرواحُ",
      "ونحنُ نمضي ولا نَدري إلى أمدٍ",
      "لكنَّ في القلبِ للآفاقِ مِفتاحُ",
    ],
  },
  {
    type: "poetry",
    featured: false,
    title: "بئر في آخر النهار",
    titleFr: "Un puits à la fin du jour",
    excerpt: "أبيات عن الماء والانتظار عند بئر في البادية.",
    excerptFr: "Quelques vers sur l'eau et l'attente près d'un puits de la badia.",
    author: "محتوى تجريبي",
    authorFr: "Contenu de démonstration",
    verses: ["على حافةِ البئرِ ظلٌّ طويلْ", "ودلوٌ يُغنّي لماءٍ قليلْ", "وراعٍ يعدُّ النجومَ انتظارًا", "ليأتيَ صبحٌ ببردٍ جميلْ"],
  },
  {
    type: "prose",
    featured: true,
    title: "رسالة من مدينة الريح",
    titleFr: "Lettre de la ville du vent",
    excerpt: "نص نثري قصير يكتب فيه مسافر إلى أمه عن مدينة تغيّر الرمال شوارعها كل صباح.",
    excerptFr: "Un court texte en prose : un voyageur écrit à sa mère depuis une ville dont le sable redessine les rues chaque matin.",
    author: "محتوى تجريبي",
    authorFr: "Contenu de démonstration",
  },
  {
    type: "folktales",
    featured: false,
    title: "حكاية الغزالة والبئر",
    titleFr: "Le conte de la gazelle et du puits",
    excerpt: "حكاية شعبية تُروى للأطفال عن غزالة ذكية تنقذ صديقها من بئر عميقة.",
    excerptFr: "Un conte pour enfants : une gazelle avisée sauve son ami tombé dans un puits profond.",
    author: "محتوى تجريبي",
    authorFr: "Contenu de démonstration",
  },
  {
    type: "translations",
    featured: false,
    title: "أغنية الحصاد",
    titleFr: "Le chant de la moisson",
    excerpt: "ترجمة عربية لأغنية حصاد من ضفاف النهر، تحتفي بالمطر والعمل المشترك.",
    excerptFr: "Traduction arabe d'un chant de moisson des rives du fleuve, qui célèbre la pluie et le travail partagé.",
    author: "محتوى تجريبي",
    authorFr: "Contenu de démonstration",
  },
];

const CATEGORY_NAMES: Record<LiteratureType, [string, string]> = {
  poetry: ["الشعر", "Poésie"],
  prose: ["النثر", "Prose"],
  folktales: ["الحكايات الشعبية", "Contes populaires"],
  translations: ["الترجمات", "Traductions"],
};

/** The sample items of one type (or all), as literature cards; poems carry `verseCount` lines. */
export function literatureSamples({ type, featured }: { type?: LiteratureType; featured?: boolean }, verseCount: number): LiteratureItem[] {
  return SAMPLES.map((s, i) => ({ s, i }))
    .filter(({ s }) => (!type || s.type === type) && (featured === undefined || s.featured === featured))
    .map(({ s, i }) => ({
      id: -(i + 1),
      title: s.title,
      titleFr: s.titleFr,
      excerpt: s.excerpt,
      excerptFr: s.excerptFr,
      authorName: s.author,
      authorNameFr: s.authorFr,
      bylines: [],
      publishDate: new Date(0),
      imageUrl: null,
      pageSlug: "",
      categoryName: CATEGORY_NAMES[s.type][0],
      categoryNameFr: CATEGORY_NAMES[s.type][1],
      categorySlug: s.type,
      isFeatured: s.featured,
      viewCount: 0,
      region: null,
      isTrending: false,
      contentType: "article" as const,
      videoUrl: null,
      readTimeMinutes: null,
      isDemo: true,
      isPoetry: s.type === "poetry",
      verses: (s.verses ?? []).slice(0, verseCount),
      versesFr: [],
    }));
}
