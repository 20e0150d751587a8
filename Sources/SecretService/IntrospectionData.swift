/// The introspection XML of each interface the provider serves (D-Bus specification,
/// "Introspection Data Format"), matching what the methods accept and return.
enum IntrospectionData {
    static let header =
        "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        + " \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"

    static let standard = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
          </interface>

        """

    static let properties = """
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="props" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>

        """

    static let service = """
          <interface name="org.freedesktop.Secret.Service">
            <method name="OpenSession">
              <arg name="algorithm" type="s" direction="in"/>
              <arg name="input" type="v" direction="in"/>
              <arg name="output" type="v" direction="out"/>
              <arg name="result" type="o" direction="out"/>
            </method>
            <method name="CreateCollection">
              <arg name="properties" type="a{sv}" direction="in"/>
              <arg name="alias" type="s" direction="in"/>
              <arg name="collection" type="o" direction="out"/>
              <arg name="prompt" type="o" direction="out"/>
            </method>
            <method name="SearchItems">
              <arg name="attributes" type="a{ss}" direction="in"/>
              <arg name="unlocked" type="ao" direction="out"/>
              <arg name="locked" type="ao" direction="out"/>
            </method>
            <method name="Unlock">
              <arg name="objects" type="ao" direction="in"/>
              <arg name="unlocked" type="ao" direction="out"/>
              <arg name="prompt" type="o" direction="out"/>
            </method>
            <method name="Lock">
              <arg name="objects" type="ao" direction="in"/>
              <arg name="locked" type="ao" direction="out"/>
              <arg name="Prompt" type="o" direction="out"/>
            </method>
            <method name="GetSecrets">
              <arg name="items" type="ao" direction="in"/>
              <arg name="session" type="o" direction="in"/>
              <arg name="secrets" type="a{o(oayays)}" direction="out"/>
            </method>
            <method name="ReadAlias">
              <arg name="name" type="s" direction="in"/>
              <arg name="collection" type="o" direction="out"/>
            </method>
            <method name="SetAlias">
              <arg name="name" type="s" direction="in"/>
              <arg name="collection" type="o" direction="in"/>
            </method>
            <signal name="CollectionCreated"><arg name="collection" type="o"/></signal>
            <signal name="CollectionDeleted"><arg name="collection" type="o"/></signal>
            <signal name="CollectionChanged"><arg name="collection" type="o"/></signal>
            <property name="Collections" type="ao" access="read"/>
          </interface>

        """

    static let collection = """
          <interface name="org.freedesktop.Secret.Collection">
            <method name="Delete"><arg name="prompt" type="o" direction="out"/></method>
            <method name="SearchItems">
              <arg name="attributes" type="a{ss}" direction="in"/>
              <arg name="results" type="ao" direction="out"/>
            </method>
            <method name="CreateItem">
              <arg name="properties" type="a{sv}" direction="in"/>
              <arg name="secret" type="(oayays)" direction="in"/>
              <arg name="replace" type="b" direction="in"/>
              <arg name="item" type="o" direction="out"/>
              <arg name="prompt" type="o" direction="out"/>
            </method>
            <signal name="ItemCreated"><arg name="item" type="o"/></signal>
            <signal name="ItemDeleted"><arg name="item" type="o"/></signal>
            <signal name="ItemChanged"><arg name="item" type="o"/></signal>
            <property name="Items" type="ao" access="read"/>
            <property name="Label" type="s" access="readwrite"/>
            <property name="Locked" type="b" access="read"/>
            <property name="Created" type="t" access="read"/>
            <property name="Modified" type="t" access="read"/>
          </interface>

        """

    static let item = """
          <interface name="org.freedesktop.Secret.Item">
            <method name="Delete"><arg name="Prompt" type="o" direction="out"/></method>
            <method name="GetSecret">
              <arg name="session" type="o" direction="in"/>
              <arg name="secret" type="(oayays)" direction="out"/>
            </method>
            <method name="SetSecret"><arg name="secret" type="(oayays)" direction="in"/></method>
            <property name="Locked" type="b" access="read"/>
            <property name="Attributes" type="a{ss}" access="readwrite"/>
            <property name="Label" type="s" access="readwrite"/>
            <property name="Type" type="s" access="read"/>
            <property name="Created" type="t" access="read"/>
            <property name="Modified" type="t" access="read"/>
          </interface>

        """

    static let session = """
          <interface name="org.freedesktop.Secret.Session">
            <method name="Close"/>
          </interface>

        """

    static let prompt = """
          <interface name="org.freedesktop.Secret.Prompt">
            <method name="Prompt"><arg name="window-id" type="s" direction="in"/></method>
            <method name="Dismiss"/>
            <signal name="Completed"><arg name="dismissed" type="b"/><arg name="result" type="v"/></signal>
          </interface>

        """

    /// The interfaces of an object.
    static func interfaces(of object: SecretObject) -> String {
        switch object {
        case .service: standard + properties + service
        case .collection: standard + properties + collection
        case .item: standard + properties + item
        case .session: standard + session
        case .prompt: standard + prompt
        }
    }
}

extension SecretServiceObjects {
    /// The introspection XML of `path` for `caller`: its interfaces when it is an object, and its
    /// child nodes (the next path element of every object below it that the caller may see).
    func introspect(_ path: String, _ caller: SecretServiceCaller) throws -> String {
        var known = [SecretServiceNames.servicePath]
        for id in collections.ids(for: caller.scope) {
            known.append(SecretObject.collectionPath(id))
            known += (try? items(of: id, caller))?.map { SecretObject.itemPath(collection: id, id: $0.id) } ?? []
        }
        known.append(SecretServiceNames.aliasPrefix + "default")
        known += sessions.paths(of: caller.uniqueName) + prompts.paths(of: caller.uniqueName)
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(
            known.filter { $0.hasPrefix(prefix) }.compactMap {
                $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
            })
        let object = object(at: path, caller)
        guard object != nil || !children.isEmpty else { throw SecretServiceError.unknownObject(path) }
        var xml = IntrospectionData.header + "<node>\n"
        if let object { xml += IntrospectionData.interfaces(of: object) }
        for child in children.sorted() { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }
}
