import CCurl

extension HTTPClientError {
    /// libcurl's TLS failures that retrying does not heal (certificates, configuration).
    /// `CURLE_SSL_CONNECT_ERROR`, a handshake that broke off, is not one of them.
    private static let tlsCodes = Set(
        [
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION,
            CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT,
        ].map(\.rawValue)
    )

    /// Maps a failed `curl_easy_perform` (or setup call) to an error kind.
    init(curlCode code: CURLcode, message: String) {
        let kind: Kind
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
        case CURLE_COULDNT_CONNECT:
            kind = .connectionRefused
        case CURLE_COULDNT_RESOLVE_HOST:
            kind = .couldNotResolveHost
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            kind = .invalidURL
        case CURLE_SSL_CONNECT_ERROR:
            kind = .tlsHandshake
        case CURLE_FILESIZE_EXCEEDED:
            // Raised by CURLOPT_MAXFILESIZE_LARGE when Content-Length is over the limit.
            kind = .responseTooLarge
        default:
            kind = Self.tlsCodes.contains(code.rawValue) ? .tls : .transport
        }
        let curlMessage = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        self.init(kind: kind, curlCode: Int(code.rawValue), detail: curlMessage)
    }
}
