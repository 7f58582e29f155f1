/** The full-site walk in en (walk.ts says what it checks). */
import { walkWithJavaScript } from "./walk.ts";

walkWithJavaScript("en");
