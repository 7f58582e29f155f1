/** The full-site walk without JavaScript, in the three languages (walk.ts says what it checks). */
import { walkWithoutJavaScript } from "./walk.ts";

walkWithoutJavaScript();
