/** The full-site walk in fr (walk.ts says what it checks). */
import { walkWithJavaScript } from "./walk.ts";

walkWithJavaScript("fr");
