import Hummingbird

/// The Parse Files routes, which carry raw bytes rather than JSON and so bypass `ParseHTTPAdapter`'s
/// body parsing: `POST /parse/files/:name` (upload, Parse headers as usual), `DELETE /parse/files/:name` and
/// `GET /parse/files/:appId/:name` (download by unguessable name, no headers needed, as parse-server).
struct FilesEndpoint: Sendable {
    let adapter: ParseHTTPAdapter

    func upload(_ request: Request, context: ParseRequestContext) async -> Response {
        let name = context.parameters.get("segment").map { QueryString.decode(Substring($0)) } ?? ""
        let parseRequest = parseRequest(request, context: context, name: name)
        let limit = adapter.service.configuration.maxFileBytes
        let bytes: ByteBuffer
        do {
            // One byte over the limit is enough to know it is too large.
            bytes = try await BodyDeadline.collect(request.body, upTo: limit + 1,
                                                   within: .seconds(adapter.bodyTimeoutSeconds))
        } catch is BodyDeadline.Expired {
            return ParseHTTPAdapter.closing(ParseHTTPAdapter.response(
                .failure(ParseError(plainStatus: 408, "request body not received in time"))))
        } catch {
            // As `ParseHTTPAdapter` answers an oversized JSON body (Hummingbird discards the rest).
            return ParseHTTPAdapter.response(.failure(ParseError(plainStatus: 413, "request entity too large")))
        }
        let response = await adapter.service.uploadFile(
            parseRequest, name: name, contentType: request.headers[.contentType],
            bytes: Array(bytes.readableBytesView))
        return ParseHTTPAdapter.response(response)
    }

    /// `DELETE /parse/files/:name`: by the master key or the file's uploader (`ParseService.deleteFile`).
    func delete(_ request: Request, context: ParseRequestContext) async -> Response {
        let name = context.parameters.get("segment").map { QueryString.decode(Substring($0)) } ?? ""
        let response = await adapter.service.deleteFile(parseRequest(request, context: context, name: name), name: name)
        return ParseHTTPAdapter.response(response)
    }

    /// The Parse headers and client address of a files request, as `ParseHTTPAdapter` gathers them.
    private func parseRequest(_ request: Request, context: ParseRequestContext, name: String) -> ParseRequest {
        var parseRequest = ParseRequest(method: request.method == .delete ? .delete : .post, path: ["files", name])
        parseRequest.headers = ParseHTTPAdapter.headers(request.headers)
        parseRequest.headers.host = request.head.authority
        parseRequest.client = ClientAddress.resolve(
            peer: context.remoteIP, forwardedFor: ForwardingHeaders.forwardedFor(request.headers),
            forwarded: ForwardingHeaders.forwarded(request.headers),
            trustedProxies: adapter.service.configuration.trustedProxies)
        return parseRequest
    }

    func download(_ request: Request, context: ParseRequestContext) async -> Response {
        let appId = context.parameters.get("segment") ?? ""
        let name = context.parameters.get("name").map { QueryString.decode(Substring($0)) } ?? ""
        let found: [UInt8]?
        do {
            found = try await adapter.service.downloadFile(applicationId: appId, name: name)
        } catch {
            return ParseHTTPAdapter.response(.failure(adapter.service.parseError(error)))
        }
        guard let bytes = found else {
            return ParseHTTPAdapter.response(.failure(ParseError(plainStatus: 404, "File not found.")))
        }
        var headers = ParseHTTPAdapter.corsHeaders
        headers[.contentType] = FileUploadPolicy.acceptedContentType
        // The type is checked on upload; a browser must not second-guess it.
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "private, max-age=86400"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
