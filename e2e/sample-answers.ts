// The sample questionnaire answers live with the API tests, which share them with the browser
// tests; this keeps the browser tests' import of them short.
export { sampleAnswers } from "../apps/server/test/support/sample-answers.ts";
