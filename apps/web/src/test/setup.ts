import { configure } from "@testing-library/react";

// A `findBy…` or `waitFor` waits up to 5 s, not the library's 1 s: on a busy machine (the
// whole suite on 2 cores) a page's first render after its fetches can take longer than 1 s,
// and a slow machine is not a failure of the page.
configure({ asyncUtilTimeout: 5_000 });
