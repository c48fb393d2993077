import {
  EMV_ALGORITHMS,
  EmvCatalogError,
  computeEmv,
  emvAlgorithmSummary,
} from '../../protocols/emv-crypto-catalog';
import { parseCommandArgs, ToolError, type ToolCommand } from '../command';

/**
 * `emv ALGORITHM --json 'INPUTS'`: EMV key derivation, cryptograms, ARPC and issuer-script secure
 * messaging under the algorithm and input names of the published vectors file
 * (`test/vectors/emv/emv-cryptograms.json`); prints the outputs under that file's `expected` names.
 *
 * For published test keys only (the vectors', the sandbox issuer's in README). Unlike `dukpt` it does not
 * refuse unknown keys: the reference implementation publishes more vectors than the team's file holds,
 * and a field tech checking one of them must not need a flag. It prints the keys it was asked to derive
 * (an `iccMasterKey`, a `sessionKey`) to stdout only, never to a log, and errors never quote an input.
 */

const usage =
  'emv ALGORITHM --json \'{"name":"value",…}\'  (emv --help lists the algorithms; binary values are hex)';

function help(): unknown {
  return {
    usage,
    algorithms: EMV_ALGORITHMS.map((name) => ({ name, summary: emvAlgorithmSummary(name) })),
    notes: [
      'inputs and outputs use the names of test/vectors/emv/emv-cryptograms.json',
      'a null input means "not given" (the reference implementation\'s default applies)',
      'key check values print 2 bytes long; add "kcvLength": 3 for 3',
      'for published test keys only',
    ],
  };
}

export const emv: ToolCommand = {
  summary:
    "EMV cryptography by the vectors file's names: ICC/session keys, ARQC, ARPC, script MAC, PIN change",
  usage,
  run(args) {
    const { values, positionals } = parseCommandArgs(args, { strings: ['json'], booleans: ['help'] }, usage);
    if (values.help === true) return help();
    const [algorithm, ...rest] = positionals;
    if (algorithm === undefined || rest.length > 0) throw new ToolError('usage', `usage: ${usage}`);
    if (!EMV_ALGORITHMS.includes(algorithm))
      throw new ToolError('unknown-algorithm', `unknown algorithm; one of: ${EMV_ALGORITHMS.join(', ')}`);
    if (values.json === undefined) throw new ToolError('usage', `missing --json inputs; usage: ${usage}`);
    let inputs: unknown;
    try {
      inputs = JSON.parse(values.json);
    } catch {
      throw new ToolError('bad-json', '--json is not valid JSON');
    }
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
      throw new ToolError('bad-json', '--json must be a JSON object of inputs');
    try {
      const { outputs, ignoredInputs } = computeEmv(algorithm, inputs as Record<string, unknown>);
      // A misspelt optional input would otherwise be silently left out of the result.
      if (ignoredInputs.length > 0)
        process.stderr.write(`note: inputs not used by ${algorithm}: ${ignoredInputs.join(', ')}\n`);
      return outputs;
    } catch (e) {
      if (e instanceof EmvCatalogError) throw new ToolError(e.code, e.message);
      throw e;
    }
  },
};
