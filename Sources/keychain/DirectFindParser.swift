import KeychainCore

/// Parses the most common calls of the two find commands without the argument parser, whose
/// reflection over the tool's commands costs more instructions than opening the keychain and
/// finding the item together.
///
/// It accepts exactly: the command name, then in any order, each at most once, `-s VALUE`,
/// `-a VALUE`, `-l VALUE` and `--keychain PATH` (each value a separate argument that does not
/// start with `-`), and the flags `-w`, `-g` and `--json`. Anything else — help, `--version`,
/// another option, a repeated one, `--opt=value`, a value starting with `-`, an unknown word —
/// gives nil, and the argument parser handles the call, errors and their wording included.
/// A `KeychainCLITests` table runs every case both ways and compares the output.
enum DirectFindParser {
    static func parse(_ arguments: [String]) -> FindRequest? {
        guard let command = arguments.first else { return nil }
        let itemClass: ItemClass
        switch command {
        case "find-generic-password": itemClass = .genericPassword
        case "find-internet-password": itemClass = .internetPassword
        default: return nil
        }
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-s", "-a", "-l", "--keychain":
                guard values[argument] == nil, index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") else {
                    return nil
                }
                values[argument] = arguments[index + 1]
                index += 2
            case "-w", "-g", "--json":
                guard flags.insert(argument).inserted else { return nil }
                index += 1
            default:
                return nil
            }
        }
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let account = values["-a"] { attributes[.account] = .string(account) }
        if let label = values["-l"] { attributes[.label] = .string(label) }
        if let name = values["-s"] { attributes[itemClass == .genericPassword ? .service : .server] = .string(name) }
        let printed: FoundOutput =
            flags.contains("-w") ? .secretOnly : flags.contains("-g") ? .attributesAndSecret : .attributes
        return FindRequest(
            itemClass: itemClass, query: Query(itemClass, attributes),
            keychain: KeychainChoice(path: values["--keychain"]),
            printed: printed, json: flags.contains("--json"))
    }
}
