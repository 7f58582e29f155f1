import type { MediaSeed } from "./types.ts";

/**
 * The media library: twelve items of each media type so every filter of the media page has a full grid.
 * Durations are those of the programme the item stands for; the demo files themselves are short samples.
 */
export const MEDIA: MediaSeed[] = [
  // Video
  { slug: "video-chinguetti-old-town-walk", type: "video", category: "architecture", region: "mauritania", featured: true, author: "yahya", durationSeconds: 412, title: "جولة في شنقيط القديمة", titleFr: "Promenade dans le vieux Chinguetti", description: "جولة مصورة بين بيوت شنقيط الحجرية ومسجدها العتيق ومكتباتها الأهلية، مع شروح معماري مختص." },
  { slug: "video-tidinit-master-class", type: "video", category: "music", featured: true, author: "khadija", durationSeconds: 1260, title: "درس في التيدينيت", titleFr: "Leçon de tidinit", description: "عازف من أسرة فنية عريقة يشرح أساسيات العزف على التيدينيت وتسلسل الأطوار في السهرة." },
  { slug: "video-silversmith-at-work", type: "video", category: "crafts", author: "khadija", durationSeconds: 385, title: "صائغ الفضة في ورشته", titleFr: "L'orfèvre dans son atelier", description: "من الفضة الخام إلى سوار منقوش: مراحل العمل في ورشة صائغ بسوق الصناعة التقليدية." },
  { slug: "video-manuscript-cleaning", type: "video", category: "manuscripts", author: "mariem", durationSeconds: 540, title: "تنظيف مخطوط خطوة بخطوة", titleFr: "Nettoyer un manuscrit, pas à pas", description: "مرممة تشرح كيف تنظف أوراق المخطوطات من الغبار وتحفظها في علب خالية من الحموضة." },
  { slug: "video-atar-old-market", type: "video", category: "adrar", region: "mauritania", author: "ahmed", durationSeconds: 295, title: "سوق أطار القديم", titleFr: "Le vieux marché d'Atar", description: "جولة بين بائعي التمور والجلود في السوق القديم لمدينة ارتبطت بإمارة آدرار." },
  { slug: "video-aleg-lake-birds", type: "video", category: "brakna", author: "fatimetou", durationSeconds: 330, title: "طيور بحيرة ألاگ", titleFr: "Les oiseaux du lac d'Aleg", description: "مشاهد من البحيرة الموسمية بعد الأمطار، حين تصل الطيور المهاجرة ويعود المزارعون." },
  { slug: "video-tidjikja-palm-grove", type: "video", category: "taganit", author: "mariem", durationSeconds: 410, title: "نخيل تجكجة", titleFr: "La palmeraie de Tidjikja", description: "يوم في واحة تجكجة خلال موسم الگيطنة، مع مزارعين يعرفون نخيلهم واحدة واحدة." },
  { slug: "video-trarza-dunes-sunset", type: "video", category: "trarza", author: "fatimetou", durationSeconds: 180, title: "غروب على كثبان الترارزة", titleFr: "Coucher de soleil sur les dunes du Trarza", description: "لقطات هادئة للكثبان في الجنوب الغربي مع غروب الشمس ورعاة يعودون بقطعانهم." },
  { slug: "video-timbuktu-oualata-letters", type: "video", category: "politics", region: "mali", trending: true, author: "mariem", durationSeconds: 720, title: "رسائل بين تمبكتو وولاتة", titleFr: "Lettres entre Tombouctou et Oualata", description: "باحث يعرض مراسلات قديمة بين علماء المدينتين تكشف شبكة معرفية عابرة للصحراء." },
  { slug: "video-almoravid-heritage-marrakech", type: "video", category: "politics", region: "morocco", author: "moctar", durationSeconds: 645, title: "أثر المرابطين من أزوگي إلى مراكش", titleFr: "L'héritage almoravide d'Azougui à Marrakech", description: "فيلم قصير يتتبع آثار المرابطين بين الصحراء والمغرب في العمارة والفقه والتجارة." },
  { slug: "video-poetry-evening-nouakchott-house", type: "video", category: "literature", region: "uae", author: "sidi", durationSeconds: 900, title: "أمسية في بيت الشعر", titleFr: "Soirée à la Maison de la poésie", description: "مقتطفات من أمسية شعرية في بيت الشعر بنواكشوط، ثمرة التعاون الثقافي مع الشارقة." },
  { slug: "video-richat-structure-eye-of-sahara", type: "video", category: "general", region: "sahara", trending: true, author: "ahmed", durationSeconds: 240, title: "قلب الصحراء: بنية الريشات", titleFr: "L'œil du Sahara : la structure du Richat", description: "دوائر صخرية عملاقة قرب وادان تُرى من الفضاء، وتثير فضول الجيولوجيين والزوار." },

  // Audio
  { slug: "audio-tidinit-lebteit-mode", type: "audio", category: "music", featured: true, author: "khadija", durationSeconds: 312, title: "التيدينيت: مقطع من طور لبتيت", titleFr: "Tidinit : extrait du mode lebteit", description: "تسجيل لعازف تيدينيت في طور لبتيت، مع مقدمة قصيرة عن مكان هذا الطور في السهرة." },
  { slug: "audio-ardin-evening-song", type: "audio", category: "music", author: "khadija", durationSeconds: 275, title: "أغنية مسائية على الآردين", titleFr: "Chant du soir à l'ardin", description: "فنانة تغني على الآردين قطعة من المديح في أمسية عائلية." },
  { slug: "audio-hassaniya-gaf-recitation", type: "audio", category: "poetry", author: "sidi", durationSeconds: 95, title: "إلقاء «گاف» حساني", titleFr: "Récitation d'un gaf hassaniya", description: "شاعر يلقي مقطوعات قصيرة من «لغن» ويشرح صورها لمن لا يعرف الحسانية." },
  { slug: "audio-classical-poem-recitation", type: "audio", category: "poetry", author: "sidi", durationSeconds: 188, title: "قصيدة «وصية الكثيب» بصوت كاتبها", titleFr: "« Le testament de la dune » lu par son auteur", description: "قراءة صوتية للقصيدة المنشورة في قسم الشعر." },
  { slug: "audio-folktale-hedgehog-wolf", type: "audio", category: "folktales", author: "zeinebou", durationSeconds: 420, title: "حكاية القنفذ والذئب", titleFr: "Le conte du hérisson et du loup", description: "جدة تروي الحكاية الشعبية كما سمعتها في طفولتها، بلهجتها وإيقاعها." },
  { slug: "audio-caravan-guide-memories", type: "audio", category: "general", region: "sahara", author: "moctar", durationSeconds: 640, title: "ذكريات دليل قوافل", titleFr: "Souvenirs d'un guide caravanier", description: "شيخ عمل دليلًا للقوافل في شبابه يروي رحلاته بين الآبار والنجوم." },
  { slug: "audio-banc-d-arguin-soundscape", type: "audio", category: "culture", featured: true, author: "fatimetou", durationSeconds: 360, title: "أصوات حوض آرغين", titleFr: "Paysage sonore du Banc d'Arguin", description: "تسجيل ميداني لأصوات الطيور والموج وأشرعة قوارب الصيد عند الفجر." },
  { slug: "audio-mahadra-morning-lesson", type: "audio", category: "manuscripts", author: "moctar", durationSeconds: 510, title: "درس الصباح في المحظرة", titleFr: "La leçon du matin à la mahadra", description: "أصوات الطلاب يرددون ألواحهم، ثم شرح الشيخ لبيت من ألفية ابن مالك." },
  { slug: "audio-adrar-emirate-lecture", type: "audio", category: "adrar", author: "moctar", durationSeconds: 1800, title: "محاضرة: إمارة آدرار", titleFr: "Conférence : l'émirat de l'Adrar", description: "محاضرة عن نشأة إمارة آدرار نحو سنة 1740 وعلاقتها بطرق القوافل." },
  { slug: "audio-trarza-oral-history", type: "audio", category: "trarza", author: "ahmed", durationSeconds: 1340, title: "التاريخ الشفهي في الترارزة", titleFr: "Histoire orale du Trarza", description: "شهادات كبار السن عن الحياة في الجنوب الغربي قبل الاستقلال." },
  { slug: "audio-nouakchott-fish-market", type: "audio", category: "general", region: "mauritania", author: "houssein", durationSeconds: 240, title: "سوق السمك في نواكشوط", titleFr: "Le marché aux poissons de Nouakchott", description: "أصوات المزاد والقوارب العائدة في أكثر أسواق العاصمة حيوية عند الغروب." },
  { slug: "audio-opinion-column-tea", type: "audio", category: "opinion", author: "aminetou", durationSeconds: 300, title: "دفتر الأحد مسموعًا: عن الشاي والوقت", titleFr: "Carnet du dimanche, version audio", description: "الكاتبة تقرأ عمودها الأسبوعي عن الشاي والوقت." },

  // Images
  { slug: "image-chinguetti-minaret", type: "image", category: "architecture", region: "mauritania", featured: true, author: "yahya", title: "مئذنة شنقيط", titleFr: "Le minaret de Chinguetti", description: "المئذنة الحجرية المربعة لمسجد شنقيط العتيق، رمز المدينة وأشهر صورها." },
  { slug: "image-ouadane-ruins-dusk", type: "image", category: "architecture", author: "yahya", title: "أطلال وادان عند الغروب", titleFr: "Les ruines de Ouadane au crépuscule", description: "البيوت الحجرية في الجزء الأعلى من وادان القديمة تحت ضوء الغروب." },
  { slug: "image-oualata-painted-door", type: "image", category: "architecture", featured: true, author: "yahya", title: "باب مزخرف في ولاتة", titleFr: "Porte ornée à Oualata", description: "زخارف حمراء على خلفية بيضاء تحيط بباب بيت قديم في ولاتة." },
  { slug: "image-tichitt-stone-wall", type: "image", category: "architecture", author: "yahya", title: "جدار من حجارة تيشيت", titleFr: "Mur de pierres à Tichitt", description: "حجارة متعددة الألوان مرصوفة بعناية في جدار بيت من بيوت تيشيت." },
  { slug: "image-silver-jewelry", type: "image", category: "crafts", author: "khadija", title: "حلي فضية تقليدية", titleFr: "Bijoux traditionnels en argent", description: "أساور وخواتم فضية منقوشة من صنع صاغة نواكشوط." },
  { slug: "image-leather-cushion-patterns", type: "image", category: "crafts", author: "zeinebou", title: "زخارف وسادة جلدية", titleFr: "Motifs d'un coussin de cuir", description: "معينات ومثلثات ملونة على وسادة جلدية من صنع حرفيات البادية." },
  { slug: "image-astronomy-manuscript-page", type: "image", category: "manuscripts", author: "mariem", title: "صفحة من مخطوط في الفلك", titleFr: "Page d'un manuscrit d'astronomie", description: "جدول فلكي بخط مغربي من إحدى المكتبات الأهلية، بهوامش لقراء متعاقبين." },
  { slug: "image-terjit-oasis-pool", type: "image", category: "adrar", region: "sahara", author: "ahmed", title: "ينبوع ترجيت", titleFr: "La source de Terjit", description: "مياه صافية بين الصخور والنخيل في واحة ترجيت بآدرار." },
  { slug: "image-banc-d-arguin-flamingos", type: "image", category: "culture", author: "fatimetou", title: "طيور النحام في حوض آرغين", titleFr: "Flamants au Banc d'Arguin", description: "سرب من طيور النحام الوردي على المياه الضحلة في الحظيرة الوطنية." },
  { slug: "image-iron-ore-train", type: "image", category: "general", region: "mauritania", author: "houssein", title: "قطار المعادن في الصحراء", titleFr: "Le train du minerai dans le désert", description: "القطار الطويل يعبر الصحراء بين الزويرات ونواذيبو محملًا بخام الحديد." },
  { slug: "image-camel-caravan-erg", type: "image", category: "general", region: "sahara", trending: true, featured: true, author: "ahmed", title: "قافلة في العرق", titleFr: "Caravane dans l'erg", description: "قافلة جمال تعبر الكثبان الذهبية في طريقها إلى وادان." },
  { slug: "image-nouakchott-pirogues", type: "image", category: "general", region: "mauritania", author: "houssein", title: "قوارب الصيد الملونة في نواكشوط", titleFr: "Les pirogues colorées de Nouakchott", description: "مئات القوارب التقليدية على شاطئ سوق السمك في العاصمة." },

  // Documents (the PDF text is Latin: the standard PDF fonts cannot shape Arabic)
  {
    slug: "doc-ancient-ksour-heritage-brief", type: "document", category: "architecture", featured: true, author: "yahya",
    title: "بطاقة تعريفية: القصور القديمة", titleFr: "Fiche patrimoine : les ksour anciens",
    description: "بطاقة مختصرة عن مدن وادان وشنقيط وتيشيت وولاتة وتاريخها وحالة صيانتها.",
    pdfText: ["Ouadane, Chinguetti, Tichitt and Oualata were caravan towns and centres of learning.", "Their stone architecture, libraries and mosques are inscribed together on the World Heritage List.", "This demo sheet summarises their history and current conservation needs."],
  },
  {
    slug: "doc-manuscript-conservation-guide", type: "document", category: "manuscripts", featured: true, author: "mariem",
    title: "دليل الحفظ الوقائي للمخطوطات", titleFr: "Guide de conservation préventive des manuscrits",
    description: "إرشادات عملية للأسر المالكة للمكتبات: التهوية، والتنظيف، والتخزين، وتجنب اللمس المتكرر.",
    pdfText: ["Keep manuscripts away from direct sun, dust and damp walls.", "Store them flat in acid-free boxes; clean with soft brushes only.", "Photograph before any restoration, and record the owner family's conditions of use."],
  },
  {
    slug: "doc-tidinit-modes-glossary", type: "document", category: "music", author: "khadija",
    title: "مسرد أطوار الموسيقى الحسانية", titleFr: "Glossaire des modes de la musique maure",
    description: "مسرد مختصر لأسماء الأطوار والجانبتين البيضاء والكحلاء وآلات الموسيقى التقليدية.",
    pdfText: ["Tidinit: lute played by men. Ardin: harp played by women.", "A soiree moves through modes such as karr, fagu, lekhal, lebyad and lebteit.", "Musicians speak of a white way and a black way through the modes."],
  },
  {
    slug: "doc-hassaniya-poetry-terms", type: "document", category: "literature", author: "sidi",
    title: "مصطلحات الشعر الحساني", titleFr: "Lexique de la poésie hassaniya",
    description: "تعريف بمصطلحات «لغن»: الگاف والطلعة والبتوت، مع أمثلة مترجمة.",
    pdfText: ["Lghna is the popular poetry of the Hassaniya-speaking Sahara.", "Gaf: a short piece built on one image or witty turn. Talaa: a longer poem in several parts.", "Btout: the metres, learned by ear and tied to the musical modes."],
  },
  {
    slug: "doc-emirates-timeline", type: "document", category: "emirates", author: "moctar",
    title: "خط زمني للإمارات الموريتانية", titleFr: "Chronologie des émirats mauritaniens",
    description: "خط زمني مبسط لنشأة إمارات تكانت والبراكنة والترارزة وآدرار وأبرز محطاتها.",
    pdfText: ["Tagant: founded about 1580.", "Brakna: founded before 1600.", "Trarza: founded about 1640.", "Adrar: founded about 1740."],
  },
  {
    slug: "doc-caravan-routes-notes", type: "document", category: "politics", region: "sahara", author: "moctar",
    title: "ملاحظات حول طرق القوافل", titleFr: "Notes sur les routes caravanières",
    description: "ملاحظات تاريخية عن الطرق الكبرى بين سجلماسة وأودغست وولاتة وتمبكتو.",
    pdfText: ["Salt went south, gold went north: the Sahara was a road, not a wall.", "Main stations: Sijilmasa, Awdaghust, Ouadane, Chinguetti, Oualata, Timbuktu.", "Portuguese coastal posts from the fifteenth century slowly shifted trade to the sea."],
  },
  {
    slug: "doc-banc-d-arguin-factsheet", type: "document", category: "culture", region: "mauritania", author: "fatimetou",
    title: "بطاقة: الحظيرة الوطنية لحوض آرغين", titleFr: "Fiche : le Parc national du Banc d'Arguin",
    description: "معلومات أساسية عن الحظيرة وطيورها وصيادي إمراگن وقواعد الزيارة.",
    pdfText: ["A World Heritage site where the desert meets the Atlantic.", "Wintering ground for vast numbers of migratory shorebirds.", "The Imraguen fishermen still sail traditional boats inside the park."],
  },
  {
    slug: "doc-festival-programme", type: "document", category: "culture", author: "ahmed",
    title: "برنامج مهرجان المدن القديمة", titleFr: "Programme du festival des villes anciennes",
    description: "البرنامج العام للأمسيات والمعارض والسباقات خلال أيام المهرجان.",
    pdfText: ["Day 1: camel parade and opening night of poetry.", "Day 2: manuscript exhibition and conservation workshop.", "Day 3: camel races, music night with tidinit and ardin."],
  },
  {
    slug: "doc-crafts-cooperatives-directory", type: "document", category: "crafts", author: "khadija",
    title: "دليل تعاونيات الصناعة التقليدية", titleFr: "Annuaire des coopératives artisanales",
    description: "قائمة تجريبية بتعاونيات الفضة والجلد والحصير ومجالات عملها.",
    pdfText: ["Demo directory of craft cooperatives: silver, leather, mats, carved wood.", "Entries are fictitious and for demonstration only."],
  },
  {
    slug: "doc-mahadra-curriculum", type: "document", category: "manuscripts", author: "moctar",
    title: "منهج المحظرة التقليدي", titleFr: "Le cursus traditionnel de la mahadra",
    description: "عرض للمتون التي يتدرج فيها طالب المحظرة من القرآن إلى الفقه والنحو والأدب.",
    pdfText: ["Quran first, written on wooden tablets and learned by heart.", "Then Maliki law (Mukhtasar Khalil), grammar (the Alfiyya of Ibn Malik), and classical poetry.", "Teaching is free; the camp feeds students from afar."],
  },
  {
    slug: "doc-oral-history-protocol", type: "document", category: "general", author: "ahmed",
    title: "دليل تسجيل التاريخ الشفهي", titleFr: "Protocole d'enregistrement de l'histoire orale",
    description: "خطوات عملية لتسجيل شهادات كبار السن: الموافقة، والأسئلة، والحفظ والأرشفة.",
    pdfText: ["Ask for consent, state the purpose, and record the date and place.", "Prefer open questions; let the speaker finish.", "Keep the original recording and a written summary side by side."],
  },
  {
    slug: "doc-press-kit", type: "document", category: "general", author: "newsroom",
    title: "الملف الصحفي للمنصة", titleFr: "Dossier de presse",
    description: "تعريف بالمنصة وأقسامها وفريقها وطرق التواصل معها (نسخة تجريبية).",
    pdfText: ["Sahara Media: news, culture and heritage from Mauritania and the Sahara.", "This press kit is demo content generated by the seed script."],
  },
];
