/**
 * Invented contributors. The names follow Mauritanian naming (ولد / بنت, "Ould" / "Mint") so bylines look
 * right, but none of them is meant to be a real person.
 */
export const AUTHORS = {
  ahmed: {
    name: "أحمد ولد محمد سالم",
    nameFr: "Ahmed Ould Mohamed Salem",
    bio: "صحفي مختص في التاريخ الاجتماعي لبلاد شنقيط، عمل مراسلًا في أطار وتجكجة.",
  },
  mariem: {
    name: "مريم بنت الشيخ",
    nameFr: "Mariem Mint Cheikh",
    bio: "باحثة في التراث المخطوط ومرممة وثائق، تكتب عن المكتبات الأهلية في المدن القديمة.",
  },
  sidi: {
    name: "سيدي محمد ولد الطالب",
    nameFr: "Sidi Mohamed Ould Taleb",
    bio: "شاعر وناقد، يدرّس الأدب العربي ويهتم بالشعر الحساني وأغراضه.",
  },
  khadija: {
    name: "خديجة بنت عبد الرحمن",
    nameFr: "Khadijetou Mint Abderrahmane",
    bio: "صحفية ثقافية تتابع الموسيقى التقليدية والصناعات اليدوية في نواكشوط والداخل.",
  },
  moctar: {
    name: "محمد المختار ولد أحمدو",
    nameFr: "Mohamed El Moctar Ould Ahmedou",
    bio: "أستاذ تاريخ، له دراسات في الإمارات الموريتانية وطرق القوافل الصحراوية.",
  },
  aminetou: {
    name: "آمنة بنت ببكر",
    nameFr: "Aminetou Mint Boubacar",
    bio: "كاتبة رأي ومحللة في الشؤون الإقليمية لمنطقة الساحل والمغرب العربي.",
  },
  houssein: {
    name: "الحسين ولد إبراهيم",
    nameFr: "El Houssein Ould Brahim",
    bio: "محرر الأخبار الرياضية والاقتصادية، مقيم في نواذيبو.",
  },
  zeinebou: {
    name: "زينب بنت الداه",
    nameFr: "Zeinebou Mint Dah",
    bio: "قاصّة ومترجمة من الفرنسية، تجمع الحكايات الشعبية من أفواه الجدات.",
  },
  yahya: {
    name: "يحيى ولد سيدي أحمد",
    nameFr: "Yahya Ould Sidi Ahmed",
    bio: "مهندس معماري يكتب عن عمارة القصور الصحراوية وصيانتها.",
  },
  fatimetou: {
    name: "فاطمة الزهراء بنت محمد",
    nameFr: "Fatimetou Zahra Mint Mohamed",
    bio: "صحفية ومقدمة برامج، تهتم بقضايا البيئة والساحل.",
  },
  newsroom: {
    name: "قسم الأخبار",
    nameFr: "La rédaction",
    bio: "فريق التحرير في نواكشوط.",
  },
} as const;

export type AuthorKey = keyof typeof AUTHORS;
