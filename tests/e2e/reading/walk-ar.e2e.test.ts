/** The full-site walk in ar (walk.ts says what it checks). */
import { walkWithJavaScript } from "./walk.ts";

walkWithJavaScript("ar");
