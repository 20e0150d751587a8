/// The `--sarif` report: a SARIF 2.1.0 log, the format GitHub code scanning and most CI
/// dashboards import.
///
/// Columns are counted in UTF-16 code units (SARIF's default `columnKind`, stated explicitly);
/// relative paths are URI references against `SRCROOT`, the directory the linter ran in. Files
/// not linted are the run's invocation's tool execution notifications (level `error`, the
/// ``NotLintedReason/code`` as descriptor id, the file as location), with `executionSuccessful`
/// false, which code scanning shows as the tool's errors rather than as alerts.
package enum SARIFReport {
    /// The linter's version, reported as the SARIF driver's version (the package's).
    package static let toolVersion = "0.13.0"

    /// The log of a run; `workingDirectory` is the absolute directory relative paths start from.
    package static func render(_ run: LintRun, workingDirectory: String) -> String {
        let rules = RuleCatalog.all.map(rule).joined(separator: ",")
        let results = run.findings.map(result).joined(separator: ",")
        let root = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        return """
            {"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{\
            "tool":{"driver":{"name":"keychain-lint","semanticVersion":\(JSONText.string(toolVersion)),"version":\(JSONText.string(toolVersion)),"rules":[\(rules)]}},\
            "originalUriBaseIds":{"SRCROOT":{"uri":\(JSONText.string("file://" + percentEncoded(root)))}},\
            "invocations":[\(invocation(run))],\
            "columnKind":"utf16CodeUnits","results":[\(results)]}]}

            """
    }

    private static func rule(_ descriptor: RuleDescriptor) -> String {
        let help = descriptor.explanation + "\n\nReported: " + descriptor.example + "\nInstead: " + descriptor.fix
        let markdown =
            descriptor.explanation + "\n\nReported:\n```swift\n" + descriptor.example + "\n```\nInstead:\n```swift\n"
            + descriptor.fix
            + "\n```\nSuppress with `// keychain-lint:disable-next-line " + descriptor.id.rawValue + " -- reason`."
        let securitySeverity =
            switch descriptor.severity {
            case .error: "8.0"
            case .warning: "5.5"
            case .note: "2.0"
            }
        return "{\"id\":\(JSONText.string(descriptor.id.rawValue)),\"name\":\(JSONText.string(descriptor.name)),"
            + "\"shortDescription\":{\"text\":\(JSONText.string(descriptor.summary))},"
            + "\"fullDescription\":{\"text\":\(JSONText.string(descriptor.explanation))},"
            + "\"help\":{\"text\":\(JSONText.string(help)),\"markdown\":\(JSONText.string(markdown))},"
            + "\"defaultConfiguration\":{\"level\":\(JSONText.string(descriptor.severity.rawValue))},"
            + "\"properties\":{\"tags\":[\"security\"],\"security-severity\":\"\(securitySeverity)\"}}"
    }

    private static func invocation(_ run: LintRun) -> String {
        let notifications = run.notLinted.map { file in
            "{\"level\":\"error\",\"descriptor\":{\"id\":\(JSONText.string(file.reason.code))},"
                + "\"message\":{\"text\":\(JSONText.string("not linted: " + file.reason.message))},"
                + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":\(artifactLocation(file.path))}}]}"
        }
        // Test files left out are not findings and not failures, but a reviewer of the log must
        // see them: a note naming each, and their count among the invocation's properties.
        let skipped = run.skippedTestFiles.map { path in
            "{\"level\":\"note\",\"descriptor\":{\"id\":\"skipped-test-file\"},"
                + "\"message\":{\"text\":\"test code, not linted (--include-tests lints it)\"},"
                + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":\(artifactLocation(path))}}]}"
        }
        return
            "{\"executionSuccessful\":\(run.notLinted.isEmpty),\"toolExecutionNotifications\":[\((notifications + skipped).joined(separator: ","))],"
            + "\"properties\":{\"skippedTestFiles\":\(run.skippedTestFiles.count)}}"
    }

    private static func result(_ finding: Finding) -> String {
        var object =
            "{\"ruleId\":\(JSONText.string(finding.rule.rawValue)),\"ruleIndex\":\(RuleCatalog.index(of: finding.rule)),"
            + "\"level\":\(JSONText.string(finding.severity.rawValue)),\"message\":{\"text\":\(JSONText.string(finding.message))},"
            + "\"locations\":[\(location(finding.file, finding.position))]"
        if let related = finding.related {
            object +=
                ",\"relatedLocations\":[{\"id\":1,\"physicalLocation\":\(physicalLocation(finding.file, related.position)),"
                + "\"message\":{\"text\":\(JSONText.string(related.message))}}]"
        }
        return object + "}"
    }

    private static func location(_ file: String, _ position: SourcePosition) -> String {
        "{\"physicalLocation\":\(physicalLocation(file, position))}"
    }

    private static func physicalLocation(_ file: String, _ position: SourcePosition) -> String {
        "{\"artifactLocation\":\(artifactLocation(file)),\"region\":{\"startLine\":\(position.line),\"startColumn\":\(position.utf16Column)}}"
    }

    private static func artifactLocation(_ file: String) -> String {
        file.hasPrefix("/")
            ? "{\"uri\":\(JSONText.string("file://" + percentEncoded(file)))}"
            : "{\"uri\":\(JSONText.string(percentEncoded(file))),\"uriBaseId\":\"SRCROOT\"}"
    }

    /// A path as a URI reference: unreserved characters and `/` kept, everything else
    /// percent-encoded byte by byte (`My File.swift` → `My%20File.swift`).
    static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            let isUnreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/")
            if isUnreserved {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return encoded
    }
}
