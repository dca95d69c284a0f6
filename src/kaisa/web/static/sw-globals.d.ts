// What the server writes above sw.js when it serves /sw.js (kaisa.web.installable.service_worker): the pages'
// version and the files the worker keeps (the shell). Only for the type check (tsconfig.worker.json).

/** The digest of Kaisa's version and every page file: a new one is a new version of the pages. */
declare const VERSION: string;
/** The paths the worker keeps in its cache: every page and every file under /static. */
declare const SHELL: string[];
