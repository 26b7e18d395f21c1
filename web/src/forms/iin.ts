// The IIN rules are the service's own (src/lib/iin.ts): one implementation, checked in the browser
// before the request and by the service after it.
export { iinProblem } from '../../../src/lib/iin'
