import Foundation
import PackagePlugin

/// `swift package secure-storage-lint [--target NAME…] [--release] [keychain-lint options]`:
/// lints the Swift sources of the package's targets (all of them by default) with keychain-lint.
///
/// SwiftPM builds plugin tools in debug, where parsing is about forty times slower than in
/// release; `--release` builds keychain-lint optimised first (minutes once, then thousands of
/// files a second).
@main
struct SecureStorageLintPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let release = extractor.extractFlag(named: "release") > 0
        let targets = targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
        // Each target's directory, so that keychain-lint takes each target as one module (its rules
        // see what the target's other files declare) and lints test targets named this way whole.
        let sourceTargets = targets.compactMap { $0 as? SourceModuleTarget }
            .filter { !$0.sourceFiles(withSuffix: "swift").map(\.url).isEmpty }
        let files = sourceTargets.map(\.directoryURL.path)
        guard !files.isEmpty else {
            Diagnostics.warning("no Swift sources in the selected targets")
            return
        }
        let tool: URL
        if release {
            let result = try packageManager.build(.product("keychain-lint"), parameters: .init(configuration: .release))
            guard result.succeeded, let built = result.builtArtifacts.first(where: { $0.kind == .executable }) else {
                Diagnostics.error("building keychain-lint in release failed:\n\(result.logText)")
                return
            }
            tool = built.url
        } else {
            tool = try context.tool(named: "keychain-lint").url
        }
        let process = try Process.run(tool, arguments: extractor.remainingArguments + files)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 1: Diagnostics.error("keychain-lint reported findings")
        case 74:
            Diagnostics.error(
                "keychain-lint could not lint some files (listed as not linted above), or could not write its report")
        default: Diagnostics.error("keychain-lint failed with status \(process.terminationStatus)")
        }
    }
}
