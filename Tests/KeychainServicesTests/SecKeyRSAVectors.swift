#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// Known-answer vectors for the RSA tests, produced once with OpenSSL 3.0 (the commands are
/// on each constant; `key.pem` is the key below) and committed as hex: the key, PKCS#1 v1.5
/// signatures (deterministic, so ours must equal them byte for byte), PSS signatures and OAEP
/// and PKCS#1 v1.5 ciphertexts (randomised, so we verify and decrypt them).
enum RSAVectors {
    /// The signed and encrypted message (`printf 'SecureStorage RSA known-answer vector'`).
    static let message = Data("SecureStorage RSA known-answer vector".utf8)
    /// The 20 bytes signed by ``pkcs1RawSignature``.
    static let rawDigest = Data("twenty-byte-digest!!".utf8)

    /// DER `RSAPrivateKey` (PKCS#1) of a 2048-bit key: `openssl genrsa -traditional 2048`, then `openssl rsa -outform DER -traditional`.
    static let privateKey = Data(
        hex:
            "308204a30201000282010100ac84bf23941e615367343b050465001665b08d2f5642a1470d7af007c7fbe8bd579720edce64684ff551436323339f70"
            + "e2d28f91fa35f6db5c47f88fabe226dc6da9a5ddd81b8efa67ecf4ccecbc4bb13ae96fd100d7cad35267db1f6319787a5a97ab1abd491e46c51a9850"
            + "e2d5b99108204a556e91c22d439ad898e629e701aa92f048b502040bf8ad48c8e9c201797ce5614cbe4efeb928c2377697087e06191dcf9254fed594"
            + "6090c07d3288736964e6580fee1149fbfcb6acd43834d13a7ed9e06336dc1028b36451c57ab4f19cbe6d82dfa4e62e220dddb74591e387cf62e516a8"
            + "54d3d3c97ace964a8215906b3f7fd83c09c32ae619dc2a3fb9bbeec7020301000102820100035780f259fcaaaaf86d51155c4bee9000814682dbbb67"
            + "af5e29fafb539ae41bc2d6191bb22b4cbffbc30ab8a1666f18bb3413f6e26f682c40a1de453e319fca164fba784d26df82a73fb6503fe7b7d9a38801"
            + "13fdddb03e9eb2875298d355fb9cc4a25a5ebf4b58589a16c83e54a087182eb3f1eab5e51a865c3a04e03480968602f2dd17cd309f573e037502e344"
            + "4b64ab5681f61856052df536321679e6e511e78ffad36c02c668feb23f98931a6083efc1813c95ec81c1cfbeea9f1a8ee216233fafde150051ae8a9e"
            + "abf9bf37f72baf2d02b46dcbe45db802e2f16c5c8eb05f46ff88416755b03a5d78ba51ddfd5f3e6d5e31fdae08d4a131891f4440b102818100e22242"
            + "2ddc229362909c95c4b6e596434282058898121bddd078ded68362bae87739fb96080ca855afe3a1e21a851fc7919c9af3f813453612f6550556eff0"
            + "98f14462a59596e75b4491a254011a234828254040b6d3c9dd86fe9a62604129782d9e907e31f922974a22fbaaeb58276e72870f65b57978a90cca5d"
            + "709536497702818100c34db7e06f59c2398406127ea251d879e3eec443792898beea81fae5831042f85de7e26d255a98096624c0937774c4553bfe21"
            + "5536636e9ae5841a6e626470619fddeb9e6b8e476ac054cf62df193347da454c05958b9f38007e65ff0f7e46bca784f6529e13f19b237380fe9c2a57"
            + "7f05ad57e2dc3a5d8aa7a1f30f4efed93102818053d99a2a811efd01a657b99d28a87710579ff8c74e84207b1e6b434dcd8815804f7d5b91a548743e"
            + "d9aa9183528c1c5d96dbb80550ee6c5281b37f912c4c6a2d7c00fc8723b1c1f5f0b603b81c7481b2a6d8313c0dcef8624145351fd74b324252c02219"
            + "f913c544ce03acc812de2c38e314bb9bde2fbd9309a01c07bbfc563f02818100b72bfb1b1a145b1f4a7dcf76c9926dafd46129de069256c0287d83ed"
            + "22416c2e3914b4be9d5c1c602456afef1f087ae35e02f90c4c98713201b5267d04f72297cd327c3bf6b058b6fc700e99b2989609fbe3266bce58471a"
            + "650c27695304a21f6a164058383e884972b46ff55c4e3205c6334fcc4bb4c9eab35226fee29e0ee10281807008d1ad88beaad2cd7cb3a7f890f53c19"
            + "bc5cdc6897a2c3d00a7818caf6ef3a0d318e3eb92e3a02affab9e49a8bca2f300c8257c6c66f9522d7acfe8b31d43a9387ba117e6d47985097a45d94"
            + "5aa0027e3c73c7e510fe63fa8e71e27f65e5cf3ecca26199f4d25f471ab40a4c9d64a1449822aa873faea6fb7161f92aa1a254")

    /// Its DER `RSAPublicKey` (PKCS#1): `openssl rsa -RSAPublicKey_out -outform DER`.
    static let publicKey = Data(
        hex:
            "3082010a0282010100ac84bf23941e615367343b050465001665b08d2f5642a1470d7af007c7fbe8bd579720edce64684ff551436323339f70e2d28f"
            + "91fa35f6db5c47f88fabe226dc6da9a5ddd81b8efa67ecf4ccecbc4bb13ae96fd100d7cad35267db1f6319787a5a97ab1abd491e46c51a9850e2d5b9"
            + "9108204a556e91c22d439ad898e629e701aa92f048b502040bf8ad48c8e9c201797ce5614cbe4efeb928c2377697087e06191dcf9254fed5946090c0"
            + "7d3288736964e6580fee1149fbfcb6acd43834d13a7ed9e06336dc1028b36451c57ab4f19cbe6d82dfa4e62e220dddb74591e387cf62e516a854d3d3"
            + "c97ace964a8215906b3f7fd83c09c32ae619dc2a3fb9bbeec70203010001")

    /// PKCS#1 v1.5 signature of ``message``: `openssl dgst -sha1 -sign key.pem`.
    static let pkcs1SHA1 = Data(
        hex:
            "3ba9a0ac0469c503b7ad99d03532674cb00ea85619a9799f340567ad47cc821c00ee20a8d940e671baca91fbb70c03a8e361d0c583da988de4184c9a"
            + "a7487f612e8cc34924eeca3fdd9282a826ff1ccf65b91f8c66ab93e1a2d5082a0740e4a0c967f1d9b2fa75942e7fc5bbfeda511e45980ffd321a4f3f"
            + "1e292d9d237eb328928707e93b3fc3fde21a73359bda33a126d92e7cd210fa4e4affcfd9cfd4789abdf41a68e1433175b93df2738b63a181b9c074a0"
            + "fdb574f1ad1ca250f0f3c37967028ce46f59ccac1c830743d797bbd8e089280986b67724f3719584a1a27a207c64727f12ed7847e4c7255cdbde0afa"
            + "4e55744f81b1cda0302668c1707a7c26")

    /// PKCS#1 v1.5 signature of ``message``: `openssl dgst -sha224 -sign key.pem`.
    static let pkcs1SHA224 = Data(
        hex:
            "7f85d032b09ae219693a308ad3f7c6d21a61372e0a4296b74e93d77825cc9cd2c034df6c02f06d45caedebb3a57f16746509ce5767965fd74c9b32c7"
            + "c7b610af111b964c6827a29675e15a5b1db611948bc12a4453b5ba04af8ed38dfefa19e6c31eb5e021f74c47db8b57b39b47521dcd8dbba8c7f67da9"
            + "3084093afb154d4c68e43349d00822861033c5cf27ea7baca7babd019daa680a9c7e6279e23e80f7c7141a572fef7503c717b32f39d02f4122a7a441"
            + "78c116805754bfe2f4f2827f2d7c44f76212b76c9740faaab19ffb48f2b95bf0ffc0dd0e7e8ecd0690e41f0d14fe9fa6dda788c2f83ae11c44fe9d71"
            + "1aca36ceb007fb41d93b05e384e861ae")

    /// PKCS#1 v1.5 signature of ``message``: `openssl dgst -sha256 -sign key.pem`.
    static let pkcs1SHA256 = Data(
        hex:
            "84ae4f9e496ae8adae7e994b1f7c4ae6a2f7f2d2515b90092ea1451b6febbf4221d97c84271ec7eb485aa70366631e811b4d1010d3b071cc5cf4415f"
            + "4e32ca2fe58e63108e8a05221dacbff62062f043d4d511c4f51ba2a1e3c24a056bc70ff498dedd6f5f3d43a25d71ca976c186c43d71a0de04b483d76"
            + "ba0a5b7b59bccc5310faa3477121a78fa0366191ec52d50b6f8cbe4c0c8c56fb7a4eee842348cbfde815afcf14ad4863d18c8b75a63124aa8882f971"
            + "46ade0a640ff2b62f763460a456d85c70bff163764807491aa3c650bc9aa352e0258b1d05925f131be104151ec8f99520104d1905818d6411b65202c"
            + "a9e0d39f0fb6f1e194ce30faebf090f1")

    /// PKCS#1 v1.5 signature of ``message``: `openssl dgst -sha384 -sign key.pem`.
    static let pkcs1SHA384 = Data(
        hex:
            "382eec1c5ff78e92f9be14659c8c96c719820a12298c5be36dd7e2b51f733ce10622f66eee56bed6274214a3db28f9d54b2fca6bf867cb687e74ecce"
            + "911e9025faea7b63d4da5d5303ea77c2dadcd52f8e5d32314636643eeed29618b029668bb98592e4a095dc3b227d1bf71239b2476d660da0064dab36"
            + "dd04de89b692c3c5023930b94b1e8d552a84b13941c2492076e6d67942bdf415c3a5e8a6c57a9ea24433e76b7a9c744174eae05f9d41593a4a8af602"
            + "6f1c839bb632f495fe15dd431931ce3d74b5f18caf074cc6df9b49e51cea45177ac076583dcdbf3071d69e754623831ec27d71cca71f10081db3faf3"
            + "616b296f4c2a01eab9dfdc547701132e")

    /// PKCS#1 v1.5 signature of ``message``: `openssl dgst -sha512 -sign key.pem`.
    static let pkcs1SHA512 = Data(
        hex:
            "5f5264bc07e284dec7a5236b063a55ebcf0c7ca25636de59afae7a0474505f81e2a1bdf507eac6abdf831a014d1b766ee6cbf0606adbc2c0b4918036"
            + "4b7e8bea2caea97d9231aa8f187fa39b6c7acd68d538affea646c6c57ceb6c7fc7efd02eecba92e63dd86c0a75e232d20ee376f9834a25bdb8070a77"
            + "f3829120af58a08eebae6e5153a61f65b8444122854283c96e53c82f872fab642200a3ff314934ec281e5a7c493b0c2f7a9cb9aa6a67032f41f24726"
            + "681b8c1f62f113930cf0ce4944da2491407fa64dd0465694bfc7d65434b960a73676e4009b044aa3183346701ddf18cb0a032cedb770bce0809fe79b"
            + "9e08676e5af55a54e440a61cd1dd9ed0")

    /// RSASSA-PSS signature of ``message`` (salt = digest size, MGF1 with the same hash): `openssl dgst -sha1 -sign key.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sigopt rsa_mgf1_md:sha1`.
    static let pssSHA1 = Data(
        hex:
            "9215bb5cc69f0c71adff46f7d8977e046285b5da390f7bcdcbe2cfb69f5dd0d2fe874f594cd7a3d9ca331de88322f83cc01713a64e2cf6731d7a221f"
            + "90b2846d55a5a7f6406ddb7f2a19fa182a7895bca89b2a15ad3eacba33df40545c2dd4445354527aab42e9fcf102768618e388a99b8bee925d6c81b3"
            + "823aa65f2f3afb0dac6c4de37827692519ea9f9c376c08da542189c6e3b3a533fe92331cd4b6cb94085d48432a8d0e3c1a2875ff4f65c63d86b40c8c"
            + "349bba12e9a8539476141aa98fd456c699f3b048436344ef9d0879197d2d71d4050f02e2165ecafcf4195cd3392125fa16be9d97dba2a7829ae12f53"
            + "ffbb2696fb6b4cfcef76bafea5ff6a00")

    /// RSASSA-PSS signature of ``message`` (salt = digest size, MGF1 with the same hash): `openssl dgst -sha224 -sign key.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sigopt rsa_mgf1_md:sha224`.
    static let pssSHA224 = Data(
        hex:
            "2b0fce8ae21b86f69fb43a2008580b2618c7c1f8839bde81d97efbd84ce96728b8efc5e34134f2842884e98ee8c7841fdbb1ad32cdccd443d4f313f0"
            + "e6812390b3e889acc3207514507ab0aebdcdf1dcec11a65209802badae39b6bebbb7669c34e71c65b50b83a4eac967351d41d515781ab0d584fe0854"
            + "a17278b45a5194886e6f38a4d74af3c385354d5e210d3e5631777180ed8b999313daf4d1bc53479d70e078db1fcc5fa925c50751b0345cc3b358477f"
            + "ab465ef514a218e18daf15fae3b2438d3097d6cbef9d70ea60756fe077cdd724ec42c9d9379c2c82ec1bd193346e2fe320666b7fe1cbd21a41b51a6c"
            + "e5c7ceef767b39235c8f3e1ff6c1f8b8")

    /// RSASSA-PSS signature of ``message`` (salt = digest size, MGF1 with the same hash): `openssl dgst -sha256 -sign key.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sigopt rsa_mgf1_md:sha256`.
    static let pssSHA256 = Data(
        hex:
            "3f0fb0627d03d161ea018042f90551b0ec1e13348bcde7e9c44713cf5d18267ba4c6c983593e0c9a08fc425e9550ceef33a798bc78724d430fdcf04c"
            + "7a79d43dfa47717f57c06a258b0936fd3135d614d0b2ea37d4eeca84c8c33d68978b7a7849082b3d00ee967b51adfd64a2e5fd0e024d385125ed18f0"
            + "25495e8ac848c66c820ed80beb7468c84b249e93f47cac2b08dd1e659691203149d6f93862b2bde0313602507184992b98b7a1e22fd8bd6ac4ff0d08"
            + "4e334a4123476a3308ee2b3785404919d925c9d83ecf694ec82c9a2dbda6e2dc1717c0c51ea8a45728b9cb966222fd71b85c9ddeef8e2bd9e7e04db6"
            + "059af620be3d8e05daffc405482633b5")

    /// RSASSA-PSS signature of ``message`` (salt = digest size, MGF1 with the same hash): `openssl dgst -sha384 -sign key.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sigopt rsa_mgf1_md:sha384`.
    static let pssSHA384 = Data(
        hex:
            "80f2160347463d6db94682584a3a1db5cf02388ce5bdddbde28096e18bbb1fd8277c16147044cf8eac3227de292ac461b966f5a9edbd4f74e8112187"
            + "e1ab1a2a45f23552eb1e8738ab73df245d56dc7b351800d532e4db4356dfe2b1a9c8d77ccf8211d90aeb8a95cb95257f7ddb04dd472a4f939367fb53"
            + "af21391c038c62c64b39528db9356f3ea7208b7d4fb3446e7a2e15b066ee2591bc633e8e2489260b2d6c8e6817b466b6aed549c0c3e1104310471092"
            + "f63c4c97392f6b53d937c3fad335f2adc80d498ed197a1e8cd25e0d12428a3ddc34a067d98828b0dd59fb6343b15febcfbc837bdb71d7bf2f46c4462"
            + "8cf8d4990b2d2e009265f7b93c47296a")

    /// RSASSA-PSS signature of ``message`` (salt = digest size, MGF1 with the same hash): `openssl dgst -sha512 -sign key.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sigopt rsa_mgf1_md:sha512`.
    static let pssSHA512 = Data(
        hex:
            "79423dcac96c43aa7592ebc5c67fa6ac43a2d3134cb10528218a69cfd0b0397e951c6dd3dd1657ffc950b4462da04576a18ed98ea50b54ca1688279d"
            + "6af462f97ee82250d08704b3e3bb8856f8ca88edbaec6badf1b05ee70c5494c752d4ee8f38ed8e979c874283752128d5c7df23d45535b5351a1a2907"
            + "a76063b8d1aa1d2b3f684cea7a842358209177e742c0ff19cff6003ce6e79615e05edd38789c530d6dac0f97b4aafbc237d71e68446ac7e0fcf8749a"
            + "279efa830a8ea6c88ec4bd1c5d90eb809975cc1076544f7637d3b484eab0f5f55453974e8a8ce4b3862ecd8e14d94e53c3f61c8cd9bdb01abe8f0ed7"
            + "f240ad27b3b7496201770b67bc570bc3")

    /// RSA-OAEP encryption of ``message``: `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha1 -pkeyopt rsa_mgf1_md:sha1`.
    static let oaepSHA1 = Data(
        hex:
            "4c14b83e9deead8d69ef3e90b4bcf2940808fd4400d4a0f95f0f1ee8ef4900b51e7a6240165da98dbd38ea3485930d16bee0ecfe044b1bb2b3b1e119"
            + "507a879a7e242f78ff1ecb57add884d896691ef3e7d2ee88337c3423f30bdb38c9c23ff0fb12a1527a6c105dc371e05afd2022ccaff44f5d28f8ad3f"
            + "7961e59a2ead877dd7a12edef79b49542603133fcb26f051d731a214f9b9a868e01036300bac60f469f3fd9db4073eca297714b07e734cf19eff5cec"
            + "3ac59396cddf93b6fcc15762144865f95f33fedb49c99a31df5e4fd2cb6107fd071d4524e17a4dabbf166f2d47b739f1aad108439661d62cb50521a8"
            + "5fb8e0b98845ebd24f6c7b598f67181b")

    /// RSA-OAEP encryption of ``message``: `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha224 -pkeyopt rsa_mgf1_md:sha224`.
    static let oaepSHA224 = Data(
        hex:
            "7440badd254eaf910fb987fdc56f8e6a4419cc0584acf90d95c163680b56ea72bcc577c77b85b426cd27b5a76cdc36ddd1b680b1028c670c1ae1a820"
            + "6bf1c5d976ea1a81c483e1c53bc155e84be2dc8d6fa5c48a0ad9aff2af87f9460bddecdbe56cfb3c767ffe98956454b3560283fb766ab63e4fc72c08"
            + "4a6c54b0b0fa1a436486e53818dbd32455924a3d51c8f63f52289a9389c21b6bcb74fcc08c421164bb9b35e930fbfc8d482da7cde3e3a96757870591"
            + "e85dbcb6b0238f71ffce6c306e21a5bc16358962575271ec282305d705dd560b93a7592d2df4576779baac7911499b44eeef744e8675debe5ab18d71"
            + "574b0598de6eb7870f7c70d6d476becb")

    /// RSA-OAEP encryption of ``message``: `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256 -pkeyopt rsa_mgf1_md:sha256`.
    static let oaepSHA256 = Data(
        hex:
            "2497204ee59662caea2d4793f42689e285c2b3dc20719cb211c1f33c721f8196f0d5fada713e7a2c4d4cee7aba494b39bc4688a8b33aebcc21fb78c4"
            + "1d0db2291d1971d1e002635cc9dc3e59622091c26b84fc771c7cc703d5191ed899481064206b43a0cc2fe131c451479b279fe645cf1306e00f2c75b0"
            + "2de70f2fa7975a7f47c991deb6ebcb74c8cccb535dc6a4321cbd564bbe6e4ee2c3684ea4f544331d3c0756931a5efa4d28cdefb2a74cc77e18c531af"
            + "1a5f42758fb99ad678cd0abb6c478a2bd430eb11065cdfc4b280551001967f0b843784fc4c528fdec86260a5e394d3aa824ed0dda43aa81088157337"
            + "926ad1ebbe3ba17147f113291d108573")

    /// RSA-OAEP encryption of ``message``: `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha384 -pkeyopt rsa_mgf1_md:sha384`.
    static let oaepSHA384 = Data(
        hex:
            "5f0a77cb0ddcda7645e982a712340f27460605de5aaeb428f1045ac17e73b5d8c89e6a3b59d041bfb39bda450f36c8890e9b672f9787432fb86391e6"
            + "b7c8ea24616ed52695dc0f15e7cd81c29f2a137961abf64a0cb6ab457eb6002e97d704d99d211ff659ee2a7e61cb657661b9719702213fdde0d21ebd"
            + "a328c54e00dce7e29d68787e7b317d7d20977e8eaa1757036b3af13b43757886b3ec0012ea2beafb102a385271f2dee946feb9d37bb1b781cbbf1e29"
            + "57d2b5c574d7c6279a4d8ad5990a6fa3966e294c1c3ad6966ea8d4be908b54175b09e6356f2319541d4632fa4bfaf12d80314ef5fc4e022ed83436a3"
            + "af4ef6437204b262c19a058fbe21ec6d")

    /// RSA-OAEP encryption of ``message``: `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha512 -pkeyopt rsa_mgf1_md:sha512`.
    static let oaepSHA512 = Data(
        hex:
            "785f43f957a6036f30d3f6456416adc4333f6a482bacc354231fd1f4589775df8a4ca63bbb64c23f67afd963ccaa7ded9c305b98c4faf393aaa7cc2a"
            + "7ae28bf4a6ea8673f0b2e56c8b024b62196ce3d1a0e9de8fc9e34354b6af3c2df6bcc03161c9082ecca0ec19fd5fbce77bd4572b23e2ad140c6a6913"
            + "175ceb2719514442cce73a1a3c6af9cf44cbbdde18360943a368cf9b34ed6dfb54fd43ee0e5f0b8e5a542a9dee4dd9efa49cfa9b3f4b32676494363d"
            + "8d8749ab0ef782ccf02a8a182caf8b2b47645d8e639077738a351749a4ad595f141676247c06f73b3099247cce9bcf603ee0a2e3bb644ec71ab2f763"
            + "30436681651a025452da873ad9710d83")

    /// PKCS#1 v1.5 encryption of ``message``: `openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:pkcs1`.
    static let pkcs1Encrypted = Data(
        hex:
            "229aa0fe39bf9058261fc966a62b1a9ed3ed683c5605aec8b1bc87963d5020e54b664574ba08077189d650d51fa3c3e479e732b02aa2698da108279e"
            + "adad7c1cdbb75f9d211a8ba2517c20a356d17fdba1530cdc3e23b1c2fb2a61564521609ec17e771da4b0ead25729cdc0a42d71daa41b02c1a9c5fc42"
            + "16056c78bdd8f2444d5be5850568b79d3fb97554100c3dea985a6c4cd8f4b81d7ca0124bfbb65d8bfbef7efd99781198f377889375e1da4968d67b44"
            + "6f27fcf8d076d0f145b869eb13b91f6a4a4d9c5f6285aef26b2fd6171c7f7e37d45d230d018978aecbd2bcc2811232244bbc219fcce5f209f3e81077"
            + "37ea3710d2bbcfe7f66f607380f5946b")

    /// PKCS#1 v1.5 signature without a DigestInfo of ``rawDigest``: `openssl rsautl -sign`.
    static let pkcs1RawSignature = Data(
        hex:
            "8adc4d83c3203fc5dbe4e30cfb391bbb59f08f6fc5b16f16e1ed02949f8dffb4b6e21de661dee7bca42c8aae69276412ea619ba6a466e45896e9bbb0"
            + "b093310cedc4de80c4532e142d773820ef35d02b1b0e02e9d531aeb44cc978943bf118da284082c814bac9ef33e6b78568fdf237e62b6e50cb3f1373"
            + "2758e91bd32ac4c56fdfd0f40615458f17abd0170d66fcad091ba307b452af85e7775e7396994f968ef281e31858c7aef93946650260de2825f3bf20"
            + "86ad92fa1948095391e0615ad3b2f77eda68508508c8f5adbbc2e6a4b3b17ac088275007b8436397c29b98efe237143e59ee67293c7b92c5eabff5ca"
            + "689ae7d79a1e3f2fe0580fb3369767a9")

    /// A modulus-sized input (a zero byte, then 255 random bytes) for the raw operation.
    static let rawInput = Data(
        hex:
            "00cef822d9968f0a9cd57aa1745f845f93d5b1465ee04ce3875248c8765a07a33ef316e0e74dc1de3f54ea3210f2d572ce3dc5a3a344ddd30bd756dd"
            + "3d1950253bd8c6b6595db1f52f9ef611d8e33316e0900aefc3eca451f967b96f628d6fa171b78af930547cc2cc0db8fd18ee81e1542e044a298c7072"
            + "31e0b1d1a3cd752e5c3386f05f4783712352a302f743e100c3b43c2276dfeceadcf8d13aedce0a6e744eb665399b601800fcecfdf0d846e31c1c7c8c"
            + "c61985b913cd0b5424db01d5da8dc031e138f9a6797bdc499be2720ed9e5acfc34c1c5c48cf309d5ea9147c113d6c07d0a0369c4c3599515230f0f23"
            + "e274fbc035a1f9c56b899db11915ccc0")

    /// ``rawInput`` with the private operation alone: `openssl rsautl -sign -raw`.
    static let rawSignature = Data(
        hex:
            "73e3611edd7f58f952d06c8779cd6d3e7aad882a8976ebf8bd09ade5aa8bf2791ecc7ded040b26b678ec7727bce1f83c9c4628440db166e9dd974364"
            + "0e60e4d59b4cd36d38d014f2534a3b64d2b761c9a9e9c36ca37892c4c349d0358f973849e3be03926d145488d1fac33f856b7816d23e3f64e0059222"
            + "ef970e5137aa3cadaf55a447f37d7ee43d73be3b7428931ea6976e95c4125c1be89267685a5764ad51b680034c308939654e6367d5295f3f315482ff"
            + "0e8e6ebbca22070699c3ae90eb6282077d4ff5e51814de825a48464a6fa63ee00cad29d74cc04178ece455e77159dcef389b45cb036840cd46972e22"
            + "1bdf4526f2ab188b75b42aa9b30c026a")
}

extension Data {
    /// Bytes from a hexadecimal string (test vectors).
    init(hex: String) {
        var bytes = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
#endif
